import { createSqliteStore } from '../../adapters/sqlite/index.js';
import type { Store } from '../../core/store.js';

/** The demo's store: one SQLite file, which the process that pauses the run and the one that resumes it share. */
export function openDemoStore(path: string): Promise<Store> {
  return createSqliteStore({ path });
}
