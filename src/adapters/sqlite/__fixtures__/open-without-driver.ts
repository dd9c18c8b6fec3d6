// Opens a store in a process where better-sqlite3 cannot be found, and prints the error as one JSON line.
//   node --import tsx open-without-driver.ts <path>
import { register } from 'node:module';

register('./hide-driver-hooks.mjs', import.meta.url);
const { StoreError } = await import('../../../errors/store-error.js');
const { createSqliteStore } = await import('../sqlite-store.js');
const outcome = await createSqliteStore({ path: process.argv[2] ?? '' }).then(
  async (store) => {
    await store.close();
    return { opened: true };
  },
  (error: unknown) => ({
    storeError: StoreError.isInstance(error),
    reason: (error as { reason?: unknown }).reason,
    message: (error as Error).message,
  }),
);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
