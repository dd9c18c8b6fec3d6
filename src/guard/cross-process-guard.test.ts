import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../adapters/postgres/__fixtures__/postgres-schemas.js';
import { SHARED_POSTGRES_URL } from '../adapters/postgres/__fixtures__/shared-postgres.js';
import { redisPrefixes } from '../adapters/redis/__fixtures__/redis-prefixes.js';
import { SHARED_REDIS_URL } from '../adapters/redis/__fixtures__/shared-redis.js';
import type { StoreSpec } from '../store/__fixtures__/open-store-spec.js';

const worker = fileURLToPath(new URL('./__fixtures__/request-worker.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'tw-cross-guard-'));
const prefixes = redisPrefixes();
const schemas = postgresSchemas();
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await prefixes.cleanup();
  await schemas.cleanup();
});

async function request(spec: StoreSpec, session: string, repeats: number) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', worker, JSON.stringify(spec), session, `${repeats}`],
    { timeout: 30_000 },
  );
  return JSON.parse(stdout) as { type: string; reason?: string; roundTrips: number; pid: number };
}

const stores: readonly [string, () => StoreSpec][] = [
  ['SQLite', () => ({ kind: 'sqlite', path: join(folder, `guard-${Date.now()}.db`) })],
  ['Redis', () => ({ kind: 'redis', url: SHARED_REDIS_URL, keyPrefix: prefixes.next() })],
  ['PostgreSQL', () => ({ kind: 'postgres', url: SHARED_POSTGRES_URL, schema: schemas.next() })],
];

describe.each(stores)('the loop guard across processes, over %s', (_name, specOf) => {
  it('a loop that continues into a request served by another process is caught there, as in one process', async () => {
    const spec = specOf();
    const first = await request(spec, 'session-1', 2);
    expect(first).toMatchObject({ type: 'completed', roundTrips: 3 });
    const second = await request(spec, 'session-1', 1);
    expect(second).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 1 });
    expect(second.pid).not.toBe(first.pid);
    // Another session of the same store starts with no memory.
    expect(await request(spec, 'session-2', 1)).toMatchObject({ type: 'completed', roundTrips: 2 });
  }, 60_000);
});
