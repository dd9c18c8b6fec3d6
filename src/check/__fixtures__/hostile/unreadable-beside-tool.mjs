// A tool, and beside it an export nothing can look at (a revoked Proxy): the tool is checked, the
// export named.
export const ping = {
  name: 'ping',
  description: 'Answers pong.',
  effect: 'read',
  output: { type: 'string' },
  execute: () => 'pong',
  examples: [{ input: {}, output: 'pong' }],
};

const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
export const settings = proxy;
