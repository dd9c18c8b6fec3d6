// A top-level await on a promise nothing can settle, and nothing else left to run: the import is stuck.
await new Promise(() => undefined);

export const never = true;
