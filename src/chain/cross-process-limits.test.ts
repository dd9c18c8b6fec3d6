import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../adapters/postgres/__fixtures__/postgres-schemas.js';
import { SHARED_POSTGRES_URL } from '../adapters/postgres/__fixtures__/shared-postgres.js';
import { redisPrefixes } from '../adapters/redis/__fixtures__/redis-prefixes.js';
import { SHARED_REDIS_URL } from '../adapters/redis/__fixtures__/shared-redis.js';
import type { StoreSpec } from '../store/__fixtures__/open-store-spec.js';
import { runTogether, startStoreWorker } from '../store/__fixtures__/start-store-worker.js';

const worker = fileURLToPath(new URL('./__fixtures__/session-calls-worker.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'tw-cross-process-'));
const prefixes = redisPrefixes();
const schemas = postgresSchemas();
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await prefixes.cleanup();
  await schemas.cleanup();
});

/** Starts a process serving the session; resolves once it has opened its store. */
const startWorker = (spec: StoreSpec, session: string, calls: number, kind: 'read' | 'write') =>
  startStoreWorker(worker, [JSON.stringify(spec), session, 'turn-1', `${calls}`, kind]);

const stores: readonly [string, () => StoreSpec][] = [
  ['SQLite', () => ({ kind: 'sqlite', path: join(folder, `limits-${Date.now()}.db`) })],
  ['Redis', () => ({ kind: 'redis', url: SHARED_REDIS_URL, keyPrefix: prefixes.next() })],
  ['PostgreSQL', () => ({ kind: 'postgres', url: SHARED_POSTGRES_URL, schema: schemas.next() })],
];

describe.each(stores)('limits across processes, over %s', (_name, specOf) => {
  // A write is counted by its idempotency claim (one round trip for both), a read by its reservation.
  it.each(['read', 'write'] as const)(
    'two processes, 50 concurrent calls each to one %s tool of one turn, limit 40: exactly 40 run, the rest are told the limit',
    async (kind) => {
      const spec = specOf();
      const workers = await Promise.all([
        startWorker(spec, 'shared', 50, kind),
        startWorker(spec, 'shared', 50, kind),
      ]);
      const [first, second] = await runTogether<{ executed: number; codes: Record<string, number> }>(workers);
      expect((first?.executed ?? 0) + (second?.executed ?? 0)).toBe(40);
      expect((first?.codes.TOOL_CALL_LIMIT ?? 0) + (second?.codes.TOOL_CALL_LIMIT ?? 0)).toBe(60);
      expect(Object.keys({ ...first?.codes, ...second?.codes })).toEqual(['TOOL_CALL_LIMIT']);
    },
    60_000,
  );
});
