// Plain JavaScript, so that Node loads it as it is (a test runner's loader may treat a namespace otherwise).
export const ping = {
  name: 'ping',
  description: 'Answers pong.',
  effect: 'read',
  execute: () => 'pong',
};

/** A module namespace with a `then` function is a thenable: `await import()` calls it and waits forever. */
export function then() {}
