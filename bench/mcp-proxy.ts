import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpProxy, parseProxyConfig } from '../dist/adapters/mcp/index.js';
import { formatRow, median } from './measure.js';

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' };
/** Limits a benchmark never reaches; the loop guard stays on (every call's message differs). */
const CONFIG = { limits: { perTool: 1e6, total: 1e6 } };
const LATENCY_CALLS = 2_000;
const WARMUP = 200;
const THROUGHPUT_CALLS = 4_000;

async function stdioClient(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StdioClientTransport({ command, args, env: ENV, stderr: 'ignore' }));
  return client;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function timed(client: Client, message: string): Promise<number> {
  const started = process.hrtime.bigint();
  await client.callTool({ name: 'echo', arguments: { message } });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * `tools/call` latency of `echo`: the same client code talking to server-everything directly and through
 * `toolwarden mcp-proxy` (the built CLI, over stdio), calls interleaved one by one so both see the same
 * machine; then calls per second through an in-process proxy with 1 and 8 concurrent client sessions.
 */
export async function benchMcpProxy(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'toolwarden-bench-proxy-'));
  const configPath = join(dir, 'toolwarden.json');
  writeFileSync(configPath, JSON.stringify(CONFIG));
  const direct = await stdioClient(process.execPath, [EVERYTHING, 'stdio']);
  const proxied = await stdioClient(process.execPath, [
    MAIN,
    'mcp-proxy',
    '--config',
    configPath,
    '--',
    process.execPath,
    EVERYTHING,
    'stdio',
  ]);
  const times = { direct: [] as number[], proxied: [] as number[] };
  for (let i = 0; i < WARMUP + LATENCY_CALLS; i++) {
    const order = i % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
    for (const which of order) {
      const ms = await timed(which === 'direct' ? direct : proxied, `m${i}`);
      if (i >= WARMUP) times[which].push(ms);
    }
  }
  await Promise.all([direct.close(), proxied.close()]);
  const p = (values: number[], q: number) => percentile(values, q).toFixed(3);
  const added50 = percentile(times.proxied, 50) - percentile(times.direct, 50);
  const added99 = percentile(times.proxied, 99) - percentile(times.direct, 99);
  const lines = [
    `#### MCP proxy: tools/call latency of server-everything's echo, over stdio (${LATENCY_CALLS} calls each, interleaved)`,
    '',
    formatRow(['subject', 'p50 ms', 'p99 ms', 'mean ms']),
    formatRow(['---', '---', '---', '---']),
    formatRow(['client → server (direct)', p(times.direct, 50), p(times.direct, 99), mean(times.direct)]),
    formatRow([
      'client → toolwarden mcp-proxy → server',
      p(times.proxied, 50),
      p(times.proxied, 99),
      mean(times.proxied),
    ]),
    formatRow(['added by the proxy', added50.toFixed(3), added99.toFixed(3), '']),
    '',
    `Target: p50 added <= 0.5 ms over stdio: ${added50.toFixed(3)} ms, ${added50 <= 0.5 ? 'met' : 'NOT met'}.`,
    '',
  ];
  lines.push(...(await throughput()));
  rmSync(dir, { recursive: true, force: true });
  return lines;
}

/** Calls per second through one in-process proxy (one upstream), `sessions` clients calling at once. */
async function throughput(): Promise<string[]> {
  const proxy = await createMcpProxy({
    config: parseProxyConfig(CONFIG, 'bench'),
    upstream: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: {}, stderr: 'ignore' },
  });
  const rows = [
    `#### MCP proxy: calls per second through one proxy in front of server-everything (${THROUGHPUT_CALLS} echo calls per row)`,
    '',
    formatRow(['concurrent client sessions', 'calls/s', 'median ms per call']),
    formatRow(['---', '---', '---']),
  ];
  for (const sessions of [1, 8]) {
    const clients = await Promise.all(
      Array.from({ length: sessions }, async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const client = new Client({ name: 'bench', version: '0' });
        const served = proxy.serve(serverSide);
        await client.connect(clientSide);
        await served;
        return client;
      }),
    );
    for (const client of clients) for (let i = 0; i < WARMUP / sessions; i++) await timed(client, `w${i}`);
    const each = THROUGHPUT_CALLS / sessions;
    const perCall: number[] = [];
    const started = process.hrtime.bigint();
    await Promise.all(
      clients.map(async (client, c) => {
        for (let i = 0; i < each; i++) perCall.push(await timed(client, `c${c}-${i}`));
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rows.push(
      formatRow([
        String(sessions),
        String(Math.round(THROUGHPUT_CALLS / seconds)),
        median(perCall).toFixed(3),
      ]),
    );
    await Promise.all(clients.map((client) => client.close()));
  }
  await proxy.close();
  return rows;
}

function mean(values: readonly number[]): string {
  return (values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(3);
}
