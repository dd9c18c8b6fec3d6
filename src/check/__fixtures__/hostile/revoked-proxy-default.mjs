// The default export is a revoked Proxy: every look at it (is it an array? its prototype?) throws.
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();

export default proxy;
