// Module hooks that make the packages named in `hidden` (`register(…, { data: { hidden: ['redis'] } })`)
// impossible to resolve, as in a project that never installed them: an adapter's optional peer.
let hidden = [];

export async function initialize(data) {
  hidden = data?.hidden ?? [];
}

export async function resolve(specifier, context, nextResolve) {
  if (hidden.includes(specifier)) {
    const error = new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return nextResolve(specifier, context);
}
