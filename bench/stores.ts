import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRedisStore } from '../dist/adapters/redis/index.js';
import { RESERVE_SCRIPT } from '../dist/adapters/redis/redis-scripts.js';
import { createSqliteStore } from '../dist/adapters/sqlite/index.js';
import {
  createToolRuntime,
  defineTool,
  MemoryStore,
  runToolLoop,
  type Store,
  type ToolRuntime,
} from '../dist/index.js';
import { assistantWithCalls, ScriptedModel } from '../dist/testing/index.js';
import { countRoundTrips, startRedisServer } from '../src/adapters/redis/__fixtures__/redis-server.js';
import { formatRow } from './measure.js';

/** Calls per row: split over the sessions, each session's calls one after another. */
const CALLS = 4_000;
const CONCURRENCY = [1, 8, 64] as const;
/** Limits that a benchmark never reaches, so every call is counted and none refused. */
const UNREACHED = { perTool: 1e9, total: 1e9, perSession: { perTool: 1e9, total: 1e9 } };

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks an order up.',
  effect: 'read',
  execute: ({ id }: { id?: string }) => ({ id, state: 'shipped' }),
});

const send = defineTool({
  name: 'send',
  description: 'Sends a message.',
  effect: 'write',
  execute: ({ to }: { to?: string }) => ({ sent: to }),
});

interface Row {
  readonly callsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/**
 * `CALLS` guarded read calls over `sessions` concurrent sessions: each call is counted against its turn's
 * and its session's limits in the store (one `reserve` of four counters). Without a session, no store call
 * is made: that row is the chain alone.
 */
async function guardedCalls(runtime: ToolRuntime, sessions: number, withSession: boolean): Promise<Row> {
  const latencies: number[] = [];
  const perSession = Math.ceil(CALLS / sessions);
  const run = randomUUID();
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: sessions }, async (_, s) => {
      const scope = withSession ? { sessionId: `bench-${run}-${s}`, turnId: 't' } : {};
      for (let i = 0; i < perSession; i++) {
        const before = process.hrtime.bigint();
        const outcome = await runtime.executeToolCall(
          { name: 'lookup', arguments: `{"id":"o-${i}"}` },
          scope,
        );
        latencies.push(Number(process.hrtime.bigint() - before) / 1000);
        if (outcome.type !== 'answered' || outcome.isError)
          throw new Error(`bench call failed: ${JSON.stringify(outcome)}`);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    callsPerSecond: (perSession * sessions) / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

/** Requests per second `redis-benchmark` gets for the store's reserve script over four keys, at `clients`. */
async function redisBenchmark(port: number, clients: number): Promise<number> {
  const { stdout } = await promisify(execFile)('redis-benchmark', [
    '-p',
    `${port}`,
    '-c',
    `${clients}`,
    '-n',
    `${CALLS * 2}`,
    '-q',
    'EVAL',
    RESERVE_SCRIPT.text,
    '4',
    'b:{s}:1',
    'b:{s}:2',
    'b:{s}:3',
    'b:{s}:4',
    '86400000',
    // No deadline (the store's own calls carry one; here the script alone is measured).
    '',
    '1000000000',
    '1000000000',
    '1000000000',
    '1000000000',
  ]);
  const match = /([\d.]+) requests per second/.exec(stdout);
  if (match === null) throw new Error(`redis-benchmark printed no rate: ${stdout}`);
  return Number(match[1]);
}

/** Round trips to Redis per guarded call and per request, counted on a private server's slow log. */
async function roundTripSection(url: string): Promise<string[]> {
  const store = await createRedisStore({ url });
  try {
    const runtime = createToolRuntime({ tools: [lookup, send], store, limits: UNREACHED });
    const calls = 50;
    const read = await countRoundTrips(url, async () => {
      for (let i = 0; i < calls; i++) {
        await runtime.executeToolCall(
          { name: 'lookup', arguments: `{"id":"${i}"}` },
          { sessionId: 'rt', turnId: 't' },
        );
      }
    });
    const loopRequest = () =>
      runToolLoop({
        model: new ScriptedModel({
          script: [
            assistantWithCalls([{ name: 'lookup', arguments: { id: 'A' } }]),
            { role: 'assistant', content: 'ok' },
          ],
        }),
        runtime,
        messages: [{ role: 'user', content: 'where is A?' }],
        sessionId: 'rt-loop',
        turnId: 't',
      });
    await loopRequest(); // the first request loads the scripts into the server's cache
    const request = await countRoundTrips(url, loopRequest);
    // Warm: the server caches each script on its first use (one more round trip, once).
    await runtime.executeToolCall(
      { name: 'send', arguments: '{"to":"warm"}' },
      { sessionId: 'rt', turnId: 't' },
    );
    const writes = await countRoundTrips(url, async () => {
      for (let i = 0; i < calls; i++) {
        await runtime.executeToolCall(
          { id: `send-${i}`, name: 'send', arguments: `{"to":"${i}"}` },
          { sessionId: 'rt', turnId: 't' },
        );
      }
    });
    // A true duplicate: the same call sent again (other writes ran since, so the same arguments under a
    // new id would be a new write).
    const duplicates = await countRoundTrips(url, async () => {
      for (let i = 0; i < calls; i++) {
        await runtime.executeToolCall(
          { id: `send-${i}`, name: 'send', arguments: `{"to":"${i}"}` },
          { sessionId: 'rt', turnId: 't' },
        );
      }
    });
    // The same writes where no limit is shared through the store (a session, no turn id, no perSession).
    const unlimited = createToolRuntime({ tools: [send], store });
    const uncounted = await countRoundTrips(url, async () => {
      for (let i = 0; i < calls; i++) {
        await unlimited.executeToolCall(
          { name: 'send', arguments: `{"to":"${i}"}` },
          { sessionId: 'rt-free' },
        );
      }
    });
    return [
      `Redis round trips per idempotent write call with shared limits (claimed and counted in one script, then recorded): ${writes.count / calls} (${[...new Set(writes.commands)].join(', ')}); per duplicate (the same call sent again: replayed, not counted): ${duplicates.count / calls}`,
      `Redis round trips per idempotent write call with no limit shared through the store (claimed, recorded): ${uncounted.count / calls}`,
      `Redis round trips per guarded read call (limits of the turn and the session, one reserve): ${read.count / calls} (${read.count} for ${calls} calls; commands: ${[...new Set(read.commands)].join(', ')})`,
      `Redis round trips per loop request with one read call (guard memory loaded and saved, the call counted): ${request.count} (${request.commands.join(', ')})`,
    ];
  } finally {
    await store.close();
  }
}

export async function benchStores(): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'tw-bench-stores-'));
  const server = await startRedisServer();
  const stores: [string, Store][] = [
    ['memory', new MemoryStore()],
    ['SQLite (WAL file)', await createSqliteStore({ path: join(folder, 'bench.db') })],
    ['Redis (private server)', await createRedisStore({ url: server.url })],
  ];
  const lines = [
    `Guarded calls through the store: ${CALLS} read calls per row over N concurrent sessions, each counted against its turn's and session's limits (one reserve of 4 counters). "added" is the row's p50 minus the chain alone (no session, no store call) at the same concurrency. Latency in µs.`,
    '',
    formatRow([
      'store',
      'sessions',
      'calls/s',
      'p50 µs',
      'p99 µs',
      'added p50 µs',
      'redis-benchmark EVAL/s',
      'calls/s ÷ redis-benchmark',
    ]),
    formatRow(['---', '---', '---', '---', '---', '---', '---', '---']),
  ];
  try {
    for (const sessions of CONCURRENCY) {
      const chainAlone = createToolRuntime({ tools: [lookup], limits: UNREACHED });
      await guardedCalls(chainAlone, sessions, false); // warm-up
      const bare = await guardedCalls(chainAlone, sessions, false);
      lines.push(
        formatRow([
          'none (chain alone)',
          `${sessions}`,
          `${Math.round(bare.callsPerSecond)}`,
          bare.p50,
          bare.p99,
          '—',
          '—',
          '—',
        ]),
      );
      const rps = await redisBenchmark(server.port, sessions);
      for (const [name, store] of stores) {
        const runtime = createToolRuntime({ tools: [lookup], store, limits: UNREACHED });
        await guardedCalls(runtime, sessions, true); // warm-up (scripts cached, statements prepared)
        const row = await guardedCalls(runtime, sessions, true);
        const redis = name.startsWith('Redis');
        lines.push(
          formatRow([
            name,
            `${sessions}`,
            `${Math.round(row.callsPerSecond)}`,
            row.p50,
            row.p99,
            row.p50 - bare.p50,
            redis ? `${Math.round(rps)}` : '—',
            redis ? (row.callsPerSecond / rps).toFixed(2) : '—',
          ]),
        );
      }
    }
    lines.push('', ...(await roundTripSection(server.url)));
  } finally {
    for (const [, store] of stores) await store.close?.();
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
  return lines;
}
