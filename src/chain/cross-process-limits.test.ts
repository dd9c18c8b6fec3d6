import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { redisPrefixes } from '../adapters/redis/__fixtures__/redis-prefixes.js';
import { SHARED_REDIS_URL } from '../adapters/redis/__fixtures__/shared-redis.js';
import type { StoreSpec } from '../store/__fixtures__/open-store-spec.js';

const worker = fileURLToPath(new URL('./__fixtures__/session-calls-worker.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'tw-cross-process-'));
const prefixes = redisPrefixes();
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await prefixes.cleanup();
});

/** Starts a process serving the session; resolves once it has opened its store. */
async function startWorker(spec: StoreSpec, session: string, calls: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', worker, JSON.stringify(spec), session, 'turn-1', `${calls}`],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  expect((await lines.next()).value).toBe('ready');
  return {
    start: (at: number) => child.stdin.end(`${at}\n`),
    outcome: async () => {
      const line = (await lines.next()).value as string;
      expect(await exited).toEqual([0, null]);
      return JSON.parse(line) as { executed: number; codes: Record<string, number> };
    },
  };
}

const stores: readonly [string, () => StoreSpec][] = [
  ['SQLite', () => ({ kind: 'sqlite', path: join(folder, `limits-${Date.now()}.db`) })],
  ['Redis', () => ({ kind: 'redis', url: SHARED_REDIS_URL, keyPrefix: prefixes.next() })],
];

describe.each(stores)('limits across processes, over %s', (_name, specOf) => {
  it('two processes, 50 concurrent calls each to one tool of one turn, limit 40: exactly 40 run, the rest are told the limit', async () => {
    const spec = specOf();
    const workers = await Promise.all([startWorker(spec, 'shared', 50), startWorker(spec, 'shared', 50)]);
    const at = Date.now() + 100;
    for (const started of workers) started.start(at);
    const [first, second] = await Promise.all(workers.map((started) => started.outcome()));
    expect((first?.executed ?? 0) + (second?.executed ?? 0)).toBe(40);
    expect((first?.codes.TOOL_CALL_LIMIT ?? 0) + (second?.codes.TOOL_CALL_LIMIT ?? 0)).toBe(60);
    expect(Object.keys({ ...first?.codes, ...second?.codes })).toEqual(['TOOL_CALL_LIMIT']);
  }, 60_000);
});
