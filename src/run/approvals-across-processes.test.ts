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
import { createToolRuntime } from '../chain/runtime.js';
import { approvalDemoShop as approvalShop, DEMO_ROUND } from '../demo/approvals/approval-demo-shop.js';
import { openStoreSpec, type StoreSpec } from '../store/__fixtures__/open-store-spec.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { runToolLoop } from './run-tool-loop.js';

// The approval survives the process: a run paused here is resumed by its id in another process, over a
// durable store, and the approved call runs exactly once, also when two processes resume it at once.

const worker = fileURLToPath(new URL('./__fixtures__/resume-by-id-worker.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'tw-approvals-'));
const prefixes = redisPrefixes();
const schemas = postgresSchemas();
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await prefixes.cleanup();
  await schemas.cleanup();
});

interface WorkerReport {
  readonly type?: string;
  readonly refused?: string;
  readonly refunds: readonly string[];
  readonly reads?: readonly string[];
  readonly pid: number;
}

async function resumeElsewhere(spec: StoreSpec, runId: string, decisions: object): Promise<WorkerReport> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', worker, JSON.stringify(spec), runId, JSON.stringify(decisions)],
    { timeout: 30_000 },
  );
  return JSON.parse(stdout) as WorkerReport;
}

/** A run paused here, at the refund, kept in the store; the process that paused it ran only the read. */
async function pauseHere(spec: StoreSpec) {
  const store = await openStoreSpec(spec);
  try {
    const shop = approvalShop();
    const outcome = await runToolLoop({
      model: new ScriptedModel({
        script: [{ role: 'assistant' as const, content: '', toolCalls: DEMO_ROUND }],
      }),
      messages: [{ role: 'user', content: 'Refund 250 on A-1.' }],
      runtime: createToolRuntime({ tools: shop.tools, store }),
    });
    if (outcome.type !== 'interrupted') throw new Error(`expected a pause, got ${outcome.type}`);
    expect(shop).toMatchObject({ refunds: [], reads: ['A-1'] });
    const digest = outcome.pending[0]?.argumentsDigest;
    return { runId: outcome.runId, approve: { r1: { approve: true, argumentsDigest: digest } } };
  } finally {
    await store.close?.();
  }
}

const stores: readonly [string, () => StoreSpec][] = [
  ['SQLite', () => ({ kind: 'sqlite', path: join(folder, `approvals-${Date.now()}.db`) })],
  ['Redis', () => ({ kind: 'redis', url: SHARED_REDIS_URL, keyPrefix: prefixes.next() })],
  ['PostgreSQL', () => ({ kind: 'postgres', url: SHARED_POSTGRES_URL, schema: schemas.next() })],
];

describe.each(stores)('approvals across processes, over %s', (_name, specOf) => {
  it('a run paused in one process is approved in another, runs the call once there, and a replay is refused', async () => {
    const spec = specOf();
    const paused = await pauseHere(spec);
    const resumed = await resumeElsewhere(spec, paused.runId, paused.approve);
    expect(resumed).toMatchObject({ type: 'completed', refunds: ['A-1'], reads: [] });
    expect(resumed.pid).not.toBe(process.pid);
    const replay = await resumeElsewhere(spec, paused.runId, paused.approve);
    expect(replay).toMatchObject({ refused: 'already-resumed', refunds: [] });
  }, 60_000);

  it('two processes resuming one run at once: exactly one runs the call, the other is refused', async () => {
    const spec = specOf();
    const paused = await pauseHere(spec);
    const both = await Promise.all([
      resumeElsewhere(spec, paused.runId, paused.approve),
      resumeElsewhere(spec, paused.runId, paused.approve),
    ]);
    expect(both.map((report) => report.type ?? report.refused).sort()).toEqual([
      'already-resumed',
      'completed',
    ]);
    expect(both.flatMap((report) => report.refunds)).toEqual(['A-1']);
  }, 60_000);
});
