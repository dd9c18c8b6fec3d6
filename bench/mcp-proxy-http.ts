import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createClient } from 'redis';
import { createMcpProxy, parseProxyConfig } from '../dist/adapters/mcp/index.js';
import { createRedisStore } from '../dist/adapters/redis/index.js';
import { formatRow } from './measure.js';

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' };
/** Limits a benchmark never reaches; the loop guard stays on (every call's message differs). */
const LIMITS = { limits: { perTool: 1e7, total: 1e7 } };
const LATENCY_CALLS = 2_000;
const WARMUP = 200;
const THROUGHPUT_CALLS = 4_000;
const ROUND_TRIP_CALLS = 500;
/**
 * A plain pass-through HTTP proxy, as an operator would write one (node:http, keep-alive, bodies piped),
 * run as a process of its own like the toolwarden proxy: the cost of one more HTTP hop, the baseline.
 */
const PASS_THROUGH = `
const http = require('node:http');
const { pipeline } = require('node:stream');
const [port, target] = process.argv.slice(1);
const upstream = new URL(target);
const agent = new http.Agent({ keepAlive: true });
http.createServer((request, response) => {
  const outgoing = http.request(
    { agent, hostname: upstream.hostname, port: upstream.port, method: request.method, path: upstream.pathname,
      headers: { ...request.headers, host: upstream.host } },
    (answer) => { response.writeHead(answer.statusCode ?? 502, answer.headers); pipeline(answer, response, () => {}); },
  );
  outgoing.on('error', () => response.destroy());
  pipeline(request, outgoing, () => {});
}).listen(Number(port), '127.0.0.1');
`;

/**
 * The proxy as a service, over Streamable HTTP on both sides, in one run side by side: `tools/call`
 * latency of server-everything's `echo` (its own process, `streamableHttp`) called directly and through
 * `toolwarden mcp-proxy --url … --listen …` (the built CLI, its own process) with the memory store and with
 * a Redis store; calls per second with 1, 8 and 64 client sessions, direct and proxied; and Redis commands
 * per call, counted on a redis-server of the bench's own (`INFO commandstats`).
 */
export async function benchMcpProxyHttp(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'toolwarden-bench-proxy-http-'));
  const children: ChildProcess[] = [];
  const start = (args: string[]) => {
    const child = spawn(process.execPath, args, { env: ENV, stdio: 'ignore' });
    children.push(child);
    return child;
  };
  try {
    const redisPort = await freePort();
    children.push(
      spawn(
        'redis-server',
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      ),
    );
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    const everythingPort = await freePort();
    const everything = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...ENV, PORT: String(everythingPort) },
      stdio: 'ignore',
    });
    children.push(everything);
    const upstream = `http://127.0.0.1:${everythingPort}/mcp`;
    await waitForPort(everythingPort);
    await waitForPort(redisPort);
    const passPort = await freePort();
    start(['-e', PASS_THROUGH, String(passPort), upstream]);
    await waitForPort(passPort);
    const proxies: Record<'pass' | 'memory' | 'redis', string> = {
      pass: `http://127.0.0.1:${passPort}/mcp`,
      memory: '',
      redis: '',
    };
    for (const store of ['memory', 'redis'] as const) {
      const config = join(dir, `${store}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          ...LIMITS,
          auth: 'none',
          trustAnnotations: true,
          ...(store === 'redis' ? { idempotentWrites: { store: { redis: redisUrl } } } : {}),
        }),
      );
      const port = await freePort();
      start([MAIN, 'mcp-proxy', '--config', config, '--url', upstream, '--listen', `127.0.0.1:${port}`]);
      await waitForPort(port);
      proxies[store] = `http://127.0.0.1:${port}/mcp`;
    }
    const lines = await latency(upstream, proxies);
    lines.push(...(await throughput(upstream, proxies.memory)));
    lines.push(...(await redisRoundTrips(upstream, redisUrl)));
    return lines;
  } finally {
    for (const child of children) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function latency(
  upstream: string,
  proxies: Record<'pass' | 'memory' | 'redis', string>,
): Promise<string[]> {
  const subjects = [
    { name: 'client → server (direct)', client: await httpClient(upstream), times: [] as number[] },
    {
      name: 'client → plain HTTP pass-through → server',
      client: await httpClient(proxies.pass),
      times: [] as number[],
    },
    {
      name: 'client → mcp-proxy (memory store) → server',
      client: await httpClient(proxies.memory),
      times: [] as number[],
    },
    {
      name: 'client → mcp-proxy (Redis store) → server',
      client: await httpClient(proxies.redis),
      times: [] as number[],
    },
  ];
  for (let i = 0; i < WARMUP + LATENCY_CALLS; i++) {
    // Each round in another order, so that no subject always runs right after another.
    const order = [...subjects.keys()].map(
      (k) => subjects[(k + i) % subjects.length] as (typeof subjects)[0],
    );
    for (const subject of order) {
      const ms = await timed(subject.client, `m${i}`);
      if (i >= WARMUP) subject.times.push(ms);
    }
  }
  for (const subject of subjects) await subject.client.close();
  const direct = subjects[0] as (typeof subjects)[0];
  const pass = subjects[1] as (typeof subjects)[0];
  const added = (subject: (typeof subjects)[0], over: (typeof subjects)[0], p: number) =>
    subject === direct || subject === over
      ? ''
      : (percentile(subject.times, p) - percentile(over.times, p)).toFixed(3);
  const rows = [
    `#### MCP proxy over Streamable HTTP: tools/call latency of server-everything's echo (${LATENCY_CALLS} calls each, interleaved; proxy and server each a process of their own)`,
    '',
    formatRow([
      'subject',
      'p50 ms',
      'p99 ms',
      'p50 added over direct',
      'p99 added over direct',
      'p50 added over pass-through',
    ]),
    formatRow(['---', '---', '---', '---', '---', '---']),
  ];
  for (const subject of subjects)
    rows.push(
      formatRow([
        subject.name,
        percentile(subject.times, 50).toFixed(3),
        percentile(subject.times, 99).toFixed(3),
        added(subject, direct, 50),
        added(subject, direct, 99),
        subject === pass ? '' : added(subject, pass, 50),
      ]),
    );
  const memory = subjects[2] as (typeof subjects)[0];
  const overDirect = percentile(memory.times, 50) - percentile(direct.times, 50);
  const overPass = percentile(memory.times, 50) - percentile(pass.times, 50);
  rows.push(
    '',
    `Target: p50 added <= 1 ms over HTTP (memory store): ${overDirect.toFixed(3)} ms over calling the server directly (${overDirect <= 1 ? 'met' : 'NOT met'}); ${overPass.toFixed(3)} ms over a plain pass-through (one more HTTP hop).`,
    '',
  );
  return rows;
}

/** Calls per second, `sessions` clients calling at once, directly and through the proxy. */
async function throughput(upstream: string, proxied: string): Promise<string[]> {
  const rows = [
    `#### MCP proxy over Streamable HTTP: calls per second (${THROUGHPUT_CALLS} echo calls per cell)`,
    '',
    formatRow([
      'concurrent client sessions',
      'direct calls/s',
      'through the proxy calls/s',
      'proxy / direct',
    ]),
    formatRow(['---', '---', '---', '---']),
  ];
  for (const sessions of [1, 8, 64]) {
    const direct = await callsPerSecond(upstream, sessions);
    const through = await callsPerSecond(proxied, sessions);
    rows.push(
      formatRow([
        String(sessions),
        String(Math.round(direct)),
        String(Math.round(through)),
        (through / direct).toFixed(2),
      ]),
    );
  }
  rows.push('');
  return rows;
}

async function callsPerSecond(url: string, sessions: number): Promise<number> {
  const clients = await Promise.all(Array.from({ length: sessions }, () => httpClient(url)));
  for (const client of clients)
    for (let i = 0; i < Math.max(5, WARMUP / sessions); i++) await timed(client, `w${i}`);
  const each = Math.ceil(THROUGHPUT_CALLS / sessions);
  const started = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = 0; i < each; i++) await timed(client, `c${c}-${i}`);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all(clients.map((client) => client.close()));
  return (each * sessions) / seconds;
}

/**
 * Redis round trips per `tools/call` of a read (echo, its `readOnlyHint` trusted) through an in-process
 * proxy on the bench's own redis-server: each store operation is one command (`get` is HMGET, every
 * other one EVALSHA), counted by wrapping the Redis store's methods, and checked against the server's own
 * count of EVALSHA (`INFO commandstats`; HMGET is not compared: the scripts call it too, and the server
 * counts those calls under it).
 */
async function redisRoundTrips(upstream: string, redisUrl: string): Promise<string[]> {
  const admin = createClient({ url: redisUrl });
  await admin.connect();
  const operations = new Map<string, number>();
  const probe = await createRedisStore({ url: redisUrl });
  const store = Object.getPrototypeOf(probe) as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['get', 'set', 'reserve', 'release', 'delete']) {
    const original = store[method] as (...args: unknown[]) => unknown;
    store[method] = function (this: unknown, ...args: unknown[]) {
      operations.set(method, (operations.get(method) ?? 0) + 1);
      return original.apply(this, args);
    };
  }
  await probe.close?.();
  const rows = [
    `#### MCP proxy with a Redis store: Redis round trips per tools/call (${ROUND_TRIP_CALLS} echo calls, one session)`,
    '',
    formatRow(['call', 'round trips per call', 'store operations', 'EVALSHA per call, as the server counts']),
    formatRow(['---', '---', '---', '---']),
  ];
  {
    const proxy = await createMcpProxy({
      config: parseProxyConfig(
        { ...LIMITS, trustAnnotations: true, idempotentWrites: { store: { redis: redisUrl } } },
        'bench',
      ),
      upstream: { url: upstream },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'bench', version: '0' });
    const served = proxy.serve(serverSide);
    await client.connect(clientSide);
    await served;
    for (let i = 0; i < 20; i++) await timed(client, `w${i}`);
    const before = await commandStats(admin);
    operations.clear();
    for (let i = 0; i < ROUND_TRIP_CALLS; i++) await timed(client, `r${i}`);
    const after = await commandStats(admin);
    const counted = [...operations.entries()].map(
      ([method, count]) => [method, count / ROUND_TRIP_CALLS] as const,
    );
    await client.close();
    await proxy.close();
    const server = (after.get('evalsha') ?? 0) - (before.get('evalsha') ?? 0);
    rows.push(
      formatRow([
        'a read (echo, readOnlyHint trusted)',
        counted.reduce((sum, [, perCall]) => sum + perCall, 0).toFixed(2),
        counted.map(([method, perCall]) => `${method} ${perCall.toFixed(2)}`).join(', '),
        (server / ROUND_TRIP_CALLS).toFixed(2),
      ]),
    );
  }
  admin.destroy();
  rows.push('', 'Target: <= 2 Redis round trips for a read.', '');
  return rows;
}

async function commandStats(admin: ReturnType<typeof createClient>): Promise<Map<string, number>> {
  const info = await admin.info('commandstats');
  const stats = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    stats.set(match[1] ?? '', Number(match[2]));
  return stats;
}

async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: ownSignal }));
  return client;
}

/**
 * The SDK sends every request with its transport's one signal, and undici keeps a listener on that signal
 * per request until the request is collected (a warning per request after 1,500): each request gets a
 * signal of its own that follows the transport's (`AbortSignal.any` holds its sources without a listener).
 */
const ownSignal: typeof fetch = (input, init) =>
  fetch(input, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);

async function timed(client: Client, message: string): Promise<number> {
  const started = process.hrtime.bigint();
  await client.callTool({ name: 'echo', arguments: { message } });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on port ${port}`);
}
