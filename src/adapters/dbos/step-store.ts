import type { Store } from '../../core/store.js';
import type { DbosWorkflows } from './dbos-workflows.js';

/**
 * The runtime's store as a durable turn uses it: a call made in the workflow outside a step (the loop
 * guard's memory loaded and saved, a turn's or session's limits reserved, a paused run kept) is a step of
 * its own (`store:<operation>`), so a recovered turn reads back what the first process got instead of
 * asking again: a replayed call is not counted against a limit twice, the guard does not learn a round
 * twice. Inside a tool step (its idempotency record) and outside a workflow the store is called as it is.
 */
export function stepStore(store: Store, dbos: Pick<DbosWorkflows, 'runStep'>): Store {
  const step = <T>(operation: string, run: () => Promise<T>) =>
    dbos.runStep(run, { name: `store:${operation}` });
  return {
    get: (key) => step('get', () => store.get(key)),
    set: (key, value, options) => step('set', () => store.set(key, value, options)),
    delete: (key, options) => step('delete', () => store.delete(key, options)),
    reserve: (counters, options) => step('reserve', () => store.reserve(counters, options)),
    release: (keys) => step('release', () => store.release(keys)),
    ...(store.close === undefined ? {} : { close: () => store.close?.() ?? Promise.resolve() }),
  };
}
