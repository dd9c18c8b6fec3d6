import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { createGateway } from '../dist/adapters/gateway/index.js';
import { createRedisStore } from '../dist/adapters/redis/index.js';
import { MemoryStore, type Store } from '../dist/index.js';
import { countRoundTrips, startRedisServer } from '../src/adapters/redis/__fixtures__/redis-server.js';
import { countNetworkRoundTrips } from '../src/adapters/redis/__fixtures__/round-trip-proxy.js';
import { BENCH_WIRES, type BenchWire, benchBody, benchHeaders, PATHS } from './gateway-wires.js';
import { formatRow, settledHeap } from './measure.js';

const LATENCY_REQUESTS = 1_500;
const WARMUP = 300;
const STREAM_REQUESTS = 400;
/** Requests per conversation in a round of the throughput measure (rounds alternate the two proxies). */
const ROUND_REQUESTS_PER_CONVERSATION = 10;
const ROUNDS = 25;
const MIN_ROUND_REQUESTS = 60;
const CONVERSATIONS_KEPT = 1_000;
const TRIP_REQUESTS = 20;

/** A server of bench/gateway-server.ts in a child process; `stop` closes its stdin and waits for its exit. */
async function startServer(
  args: readonly string[],
): Promise<{ info: Record<string, string>; pid: number; stop(): Promise<void> }> {
  // GATEWAY_BENCH_PROF=<dir>: a CPU profile of each proxy (`node --cpu-prof`), in <dir>/<role>.
  const profile = process.env.GATEWAY_BENCH_PROF;
  const flags =
    profile !== undefined && args[0] !== 'providers'
      ? ['--cpu-prof', `--cpu-prof-dir=${profile}/${args[0]}`]
      : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', new URL('./gateway-server.ts', import.meta.url).pathname, ...args],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server ${args[0]} exited (${code})`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    info: JSON.parse(first) as Record<string, string>,
    pid: child.pid as number,
    stop: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}

// Idle sockets close after 4 s, before a node:http server's 5 s keep-alive timeout closes them under a
// request (a reused socket the server is closing answers "socket hang up").
const clientAgent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });

/**
 * One POST; resolves with the ms to the first text byte (a stream) or to the whole answer, and its body.
 * A connection reset before any answer (a kept-alive socket closed under it) is tried once more, as SDKs do.
 */
async function post(...args: Parameters<typeof postOnce>): Promise<{ ms: number; body: string }> {
  try {
    return await postOnce(...args);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ECONNRESET') throw error;
    return postOnce(...args);
  }
}

function postOnce(
  base: string,
  wire: BenchWire,
  text: string,
  session: string,
  untilText: boolean,
): Promise<{ ms: number; body: string }> {
  const url = new URL(PATHS[wire], base);
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent: clientAgent,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          'x-toolwarden-session': session,
          ...benchHeaders(wire),
        },
      },
      (response: IncomingMessage) => {
        let seen = '';
        let firstText: number | undefined;
        response.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          if (untilText && firstText === undefined && seen.includes('Hello')) firstText = elapsed();
        });
        response.on('end', () => {
          if (response.statusCode !== 200)
            reject(new Error(`${wire}: status ${response.statusCode}: ${seen}`));
          else if (untilText && firstText === undefined) reject(new Error(`${wire}: no text in the stream`));
          else resolve({ ms: firstText ?? elapsed(), body: seen });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * The CPU time a process has used, in ms (user and system, every thread: /proc/<pid>/stat, Linux); undefined
 * where there is no /proc. On 2 shared cores a proxy's CPU per request is steadier than its requests per second.
 */
function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, in clock ticks of 10 ms (fields 14 and 15 of the line; 12 and 13 after the name).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

type Subjects = Record<'direct' | 'pass-through' | 'gateway', string>;

/** Requests interleaved one by one over the subjects, so all see the same machine: p50 and p99 of each. */
async function latencies(wire: BenchWire, subjects: Subjects, count: number, stream: boolean) {
  const names = Object.keys(subjects) as (keyof Subjects)[];
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const text = benchBody(wire, 1, stream);
  for (let i = 0; i < WARMUP + count; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length] as keyof Subjects;
      const { ms } = await post(subjects[name], wire, text, 's-latency', stream);
      if (i >= WARMUP) times[name]?.push(ms);
    }
  }
  return Object.fromEntries(
    names.map((name) => [
      name,
      { p50: percentile(times[name] ?? [], 50), p99: percentile(times[name] ?? [], 99) },
    ]),
  ) as Record<keyof Subjects, { p50: number; p99: number }>;
}

/** Requests per second with `concurrency` conversations at once, each sending its requests in turn. */
async function throughput(
  wire: BenchWire,
  base: string,
  concurrency: number,
  requests: number,
): Promise<number> {
  const texts = Array.from({ length: concurrency }, (_, index) => benchBody(wire, index, false));
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    texts.map(async (text, index) => {
      while (next < requests) {
        next++;
        await post(base, wire, text, `s-${wire}-${index}`, false);
      }
    }),
  );
  return requests / (Number(process.hrtime.bigint() - started) / 1e9);
}

/**
 * Short rounds alternating the pass-through and the gateway (which goes first alternates too), so a burst
 * of other work on the shared machine falls on both alike: the median rate of each, the median of the
 * per-round ratios, and each proxy's CPU per request over all its rounds (µs; `pids` are their processes).
 */
async function rates(
  wire: BenchWire,
  subjects: Subjects,
  pids: Record<'pass-through' | 'gateway', number>,
  concurrency: number,
) {
  const requests = Math.max(MIN_ROUND_REQUESTS, ROUND_REQUESTS_PER_CONVERSATION * concurrency);
  await throughput(wire, subjects['pass-through'], concurrency, requests);
  await throughput(wire, subjects.gateway, concurrency, requests);
  const base: number[] = [];
  const guarded: number[] = [];
  const ratios: number[] = [];
  const cpu = { 'pass-through': 0, gateway: 0 };
  /** One round of `name`, its process's CPU added up. */
  const round = async (name: 'pass-through' | 'gateway') => {
    const before = cpuMs(pids[name]);
    const rate = await throughput(wire, subjects[name], concurrency, requests);
    const after = cpuMs(pids[name]);
    cpu[name] += before === undefined || after === undefined ? Number.NaN : after - before;
    return rate;
  };
  for (let index = 0; index < ROUNDS; index++) {
    const first = index % 2 === 0;
    const a = await round(first ? 'pass-through' : 'gateway');
    const b = await round(first ? 'gateway' : 'pass-through');
    const [passThrough, gateway] = first ? [a, b] : [b, a];
    base.push(passThrough);
    guarded.push(gateway);
    ratios.push(gateway / passThrough);
  }
  const perRequest = (ms: number) => (ms * 1000) / (ROUNDS * requests);
  return {
    passThrough: median(base),
    gateway: median(guarded),
    ratio: median(ratios),
    cpu: { passThrough: perRequest(cpu['pass-through']), gateway: perRequest(cpu.gateway) },
  };
}

/** `pass-through µs / gateway µs (quotient)`: the quotient is the gateway's share of the pass-through's rate if CPU alone set it. */
function cpuCell(cpu: { readonly passThrough: number; readonly gateway: number }): string {
  return `${cpu.passThrough.toFixed(0)} / ${cpu.gateway.toFixed(0)} (${((cpu.passThrough / cpu.gateway) * 100).toFixed(0)}%)`;
}

/** The heap a gateway keeps per conversation: one request of a new conversation each, a `MemoryStore`. */
async function memoryPerConversation(wire: BenchWire, provider: string): Promise<number> {
  const kept = createGateway({ upstream: { url: provider }, store: new MemoryStore() });
  const { url } = await kept.listen({ port: 0 });
  await post(url, wire, benchBody(wire, -1, false), 'kept-warm', false);
  const before = settledHeap();
  for (let index = 0; index < CONVERSATIONS_KEPT; index++)
    await post(url, wire, benchBody(wire, index, false), `kept-${wire}-${index}`, false);
  const after = settledHeap();
  await kept.close();
  return (after - before) / CONVERSATIONS_KEPT / 1024;
}

/**
 * Network round trips and Redis commands per request, on a private redis-server behind a counting proxy:
 * `TRIP_REQUESTS` requests of a conversation each, after one that warms the server's script cache.
 */
async function storeTrips(providers: Record<BenchWire, string>): Promise<string[]> {
  const redis = await startRedisServer();
  const counted = await countNetworkRoundTrips(redis.port);
  const store: Store = await createRedisStore({ url: counted.url });
  /** Each case: the body of the request counted (a chained one first gets the answer it continues). */
  const cases: { name: string; wire: BenchWire; body: (base: string, index: number) => Promise<string> }[] = [
    ...BENCH_WIRES.map((wire) => ({
      name: `${wire}, full history`,
      wire,
      body: async (_base: string, index: number) => benchBody(wire, index, false),
    })),
    {
      name: 'responses, previous_response_id (a new question on the last answer)',
      wire: 'responses',
      body: async (base: string, index: number) => {
        const first = await post(
          base,
          'responses',
          benchBody('responses', index, false),
          `t-${index}`,
          false,
        );
        const id = (JSON.parse(first.body) as { id: string }).id;
        return JSON.stringify({ model: 'fake-model', previous_response_id: id, input: 'And order B?' });
      },
    },
  ];
  const rows: string[] = [];
  try {
    for (const { name, wire, body } of cases) {
      const gateway = createGateway({ upstream: { url: providers[wire] }, store });
      const { url } = await gateway.listen({ port: 0 });
      let trips = 0;
      let commands = 0;
      for (let index = -1; index < TRIP_REQUESTS; index++) {
        const text = await body(url, index);
        const send = () => post(url, wire, text, `t-${index}`, false);
        if (index < 0) {
          await send();
          continue;
        }
        const sent = await countRoundTrips(redis.url, async () => {
          trips += await counted.during(send);
        });
        commands += sent.count;
      }
      await gateway.close();
      rows.push(formatRow([name, (trips / TRIP_REQUESTS).toFixed(2), (commands / TRIP_REQUESTS).toFixed(2)]));
    }
  } finally {
    await store.close?.();
    await counted.close();
    await redis.stop();
  }
  return rows;
}

/**
 * `toolwarden gateway` against a plain node:http pass-through proxy and direct, side by side, in front of
 * fake providers of the three wires (OpenAI chat completions, Anthropic Messages, OpenAI Responses). The
 * providers, the pass-through and the gateway each run in a process of their own (bench/gateway-server.ts),
 * the load generator in this one, so both proxies are measured alike: the latency a 20-message request gains
 * (p50, p99), the first text byte of a stream, requests per second with 1 and 32 conversations, the Redis
 * round trips per request (a private redis-server), the memory each conversation keeps (a `MemoryStore`).
 */
export async function benchGateway(): Promise<string[]> {
  const providers = await startServer(['providers']);
  const urls = providers.info as Record<BenchWire, string>;
  const measured: string[] = [];
  const summary: string[] = [];
  try {
    // GATEWAY_BENCH_WIRES=chat,responses: those wires only (to profile one).
    const only = process.env.GATEWAY_BENCH_WIRES?.split(',');
    for (const wire of BENCH_WIRES.filter((name) => only === undefined || only.includes(name))) {
      const passThrough = await startServer(['pass-through', urls[wire]]);
      const gateway = await startServer(['gateway', urls[wire]]);
      try {
        const subjects: Subjects = {
          direct: urls[wire],
          'pass-through': passThrough.info.url as string,
          gateway: gateway.info.url as string,
        };
        const plain = await latencies(wire, subjects, LATENCY_REQUESTS, false);
        const streamed = await latencies(wire, subjects, STREAM_REQUESTS, true);
        const pids = { 'pass-through': passThrough.pid, gateway: gateway.pid };
        const one = await rates(wire, subjects, pids, 1);
        const many = await rates(wire, subjects, pids, 32);
        for (const name of ['direct', 'pass-through', 'gateway'] as const) {
          const rate = (value: number) => (name === 'direct' ? '' : value.toFixed(0));
          measured.push(
            formatRow([
              wire,
              name,
              plain[name].p50.toFixed(3),
              plain[name].p99.toFixed(3),
              streamed[name].p50.toFixed(3),
              streamed[name].p99.toFixed(3),
              rate(name === 'gateway' ? one.gateway : one.passThrough),
              rate(name === 'gateway' ? many.gateway : many.passThrough),
            ]),
          );
        }
        summary.push(
          formatRow([
            wire,
            (plain.gateway.p50 - plain['pass-through'].p50).toFixed(3),
            (plain.gateway.p99 - plain['pass-through'].p99).toFixed(3),
            (streamed.gateway.p50 - streamed['pass-through'].p50).toFixed(3),
            `${(one.ratio * 100).toFixed(0)}%`,
            `${(many.ratio * 100).toFixed(0)}%`,
            cpuCell(one.cpu),
            cpuCell(many.cpu),
            (await memoryPerConversation(wire, urls[wire])).toFixed(2),
          ]),
        );
      } finally {
        await gateway.stop();
        await passThrough.stop();
      }
    }
    const trips = await storeTrips(urls);
    return [
      '#### Gateway: three wires, a 20-message request (client, provider, pass-through and gateway in separate processes, 2 shared cores)',
      '',
      `Latency: ${LATENCY_REQUESTS} requests each, interleaved one by one; first text byte: ${STREAM_REQUESTS} streamed requests each; req/s: median of ${ROUNDS} short rounds (${ROUND_REQUESTS_PER_CONVERSATION} requests per conversation), the pass-through and the gateway alternating; the ratio is the median of the rounds' ratios.`,
      '',
      formatRow([
        'wire',
        'subject',
        'p50 ms',
        'p99 ms',
        'first text p50 ms',
        'first text p99 ms',
        'req/s, 1 conversation',
        'req/s, 32',
      ]),
      formatRow(['---', '---', '---', '---', '---', '---', '---', '---']),
      ...measured,
      '',
      formatRow([
        'wire',
        'p50 added over pass-through (ms)',
        'p99 added',
        'first text p50 added',
        'gateway / pass-through req/s, 1',
        'same, 32',
        'CPU µs per request, pass-through / gateway (their quotient), 1',
        'same, 32',
        `KiB kept per conversation (${CONVERSATIONS_KEPT}, MemoryStore)`,
      ]),
      formatRow(['---', '---', '---', '---', '---', '---', '---', '---', '---']),
      ...summary,
      '',
      formatRow([
        'request (private redis-server)',
        'network round trips per request',
        'Redis commands per request',
      ]),
      formatRow(['---', '---', '---']),
      ...trips,
    ];
  } finally {
    await providers.stop();
    clientAgent.destroy();
  }
}
