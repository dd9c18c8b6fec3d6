// Opens an adapter's store in a process where its optional peer cannot be found, and prints the outcome as
// one JSON line:   node --import tsx open-without-peer.ts <peer> sqlite|redis|postgres '<the factory's argument, JSON>'
import { register } from 'node:module';

const [peer = '', adapter = '', argument = '{}'] = process.argv.slice(2);
register('./hide-package-hooks.mjs', import.meta.url, { data: { hidden: [peer] } });
const { StoreError } = await import('../../core/errors/store-error.js');
const open = async (): Promise<{ close(): Promise<void> }> => {
  switch (adapter) {
    case 'sqlite':
      return (await import('../sqlite/sqlite-store.js')).createSqliteStore(JSON.parse(argument));
    case 'redis':
      return (await import('../redis/redis-store.js')).createRedisStore(JSON.parse(argument));
    case 'postgres':
      return (await import('../postgres/postgres-store.js')).createPostgresStore(JSON.parse(argument));
    default:
      throw new Error(`no adapter ${adapter}`);
  }
};
const outcome = await open().then(
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
