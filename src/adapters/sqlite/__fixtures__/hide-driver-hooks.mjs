// Module hooks that make `better-sqlite3` impossible to resolve, as in a project that never installed it.
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'better-sqlite3') {
    const error = new Error(`Cannot find package 'better-sqlite3' imported from ${context.parentURL}`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return nextResolve(specifier, context);
}
