import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../adapters/postgres/__fixtures__/postgres-schemas.js';
import { SHARED_POSTGRES_URL } from '../../adapters/postgres/__fixtures__/shared-postgres.js';
import { redisPrefixes } from '../../adapters/redis/__fixtures__/redis-prefixes.js';
import { SHARED_REDIS_URL } from '../../adapters/redis/__fixtures__/shared-redis.js';
import { openStoreSpec, type StoreSpec } from '../../store/__fixtures__/open-store-spec.js';
import { recordEvents } from '../../testing/record-events.js';
import type { IdempotencyMode } from '../../tools/idempotency-options.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';
import { forgetIdempotencyRecord } from './forget-idempotency-record.js';

// A process killed between running a write and recording its result: what the next attempt does is the
// tool's mode (at most once by default: surfaced as unknown, never run again silently). The side effect is
// a line in a ledger file, so it is counted across the processes.

const worker = fileURLToPath(new URL('./__fixtures__/crash-worker.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'tw-crash-'));
const prefixes = redisPrefixes();
const schemas = postgresSchemas();
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await prefixes.cleanup();
  await schemas.cleanup();
});

let files = 0;
const stores: readonly [string, () => StoreSpec][] = [
  ['SQLite', () => ({ kind: 'sqlite', path: join(folder, `crash-${++files}.db`) })],
  ['Redis', () => ({ kind: 'redis', url: SHARED_REDIS_URL, keyPrefix: prefixes.next() })],
  ['PostgreSQL', () => ({ kind: 'postgres', url: SHARED_POSTGRES_URL, schema: schemas.next() })],
];

const LEASE_MS = 300;
const call = { name: 'charge', arguments: { order: 'A-1' } };

/** Runs the charge in a child that dies by SIGKILL right after its side effect; returns the ledger's path. */
async function crashWhileCharging(spec: StoreSpec, mode: IdempotencyMode | 'default'): Promise<string> {
  const ledger = join(folder, `ledger-${++files}.txt`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', worker, JSON.stringify(spec), mode, `${LEASE_MS}`, ledger],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  expect(await once(child, 'exit')).toEqual([null, 'SIGKILL']);
  expect(charges(ledger)).toBe(1);
  return ledger;
}

const charges = (ledger: string) => readFileSync(ledger, 'utf8').split('\n').filter(Boolean).length;

/** The next attempt, in this process, with a tool that charges (appends to the ledger) and returns. */
async function chargeAgain(spec: StoreSpec, mode: IdempotencyMode | 'default', ledger: string) {
  const store = await openStoreSpec(spec);
  const { tool } = chargeTool({
    idempotency: { leaseMs: LEASE_MS, ...(mode === 'default' ? {} : { mode }) },
    run: () => {
      appendFileSync(ledger, 'charged\n');
      return 'charged';
    },
  });
  const runtime = createToolRuntime({ store, tools: [tool] });
  const recorder = recordEvents();
  const attempt = () => runtime.executeToolCall(call, { sessionId: 'crashed', onEvent: recorder.listener });
  return { store, runtime, recorder, attempt };
}

describe.each(stores)('a process killed between execute and record, over %s', (_name, specOf) => {
  it('at most once, the default: the next attempt is refused as OUTCOME_UNKNOWN (one charge), whatever ran since, until the record is forgotten', async () => {
    const spec = specOf();
    const ledger = await crashWhileCharging(spec, 'default');
    const { store, runtime, attempt } = await chargeAgain(spec, 'default', ledger);
    try {
      // Within the lease the attempt waits (the call might still be running); once it has passed, the
      // process is taken to have died and the outcome is unknown.
      const refused = await attempt();
      expect(refused).toMatchObject({ isError: true, code: 'OUTCOME_UNKNOWN' });
      expect(refused.type === 'answered' && refused.content).toContain(
        'tell the user the outcome has to be checked',
      );
      // Another write of the session does not make the next attempt a new write: it is most likely the
      // retry of the call whose answer never came.
      expect(
        await runtime.executeToolCall(
          { name: 'charge', arguments: { order: 'B-2' } },
          { sessionId: 'crashed' },
        ),
      ).toMatchObject({ isError: false });
      expect(await attempt()).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
      expect(charges(ledger)).toBe(2);
      // Resolved: a person checked that the charge did not go through, and forgets the record.
      await forgetIdempotencyRecord(runtime, {
        toolName: 'charge',
        arguments: call.arguments,
        sessionId: 'crashed',
      });
      expect(await attempt()).toMatchObject({ isError: false });
      expect(charges(ledger)).toBe(3);
    } finally {
      await store.close?.();
    }
  }, 60_000);

  it('at least once: after the lease the next attempt takes the call over and runs it again (two charges), once', async () => {
    const spec = specOf();
    const ledger = await crashWhileCharging(spec, 'at-least-once');
    const { store, recorder, attempt } = await chargeAgain(spec, 'at-least-once', ledger);
    try {
      expect(await attempt()).toMatchObject({ isError: false, content: '"charged"' });
      expect(charges(ledger)).toBe(2);
      expect(recorder.ofType('idempotency-warn').map((event) => event.action)).toEqual(['taken-over']);
      expect(await attempt()).toMatchObject({ isError: false });
      expect(charges(ledger)).toBe(2);
    } finally {
      await store.close?.();
    }
  }, 60_000);
});
