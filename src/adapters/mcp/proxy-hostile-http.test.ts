// A remote server that answers badly over Streamable HTTP (oversized, malformed, not JSON-RPC, HTML, never,
// a list of thousands of tools), behind the proxy's HTTP front with a well-behaved server beside it: each
// bad answer is a clear isError result for its call only, other sessions go on, every call is audited.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MCP_MAX_TOOLS } from '../../core/defaults.js';
import { type HostileHttpServer, startHostileHttpServer } from './__fixtures__/hostile-http-server.js';
import { type HttpUpstream, startHttpUpstream } from './__fixtures__/http-test-server.js';
import type { McpProxy } from './mcp-proxy.js';
import { createMcpProxy } from './mcp-proxy-server.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { type McpProxyHttpServer, serveMcpProxyHttp } from './serve-mcp-proxy-http.js';

const TIMEOUT_MS = 60_000;
let folder: string;
let hostile: HostileHttpServer;
let good: HttpUpstream;
let proxy: McpProxy;
let front: McpProxyHttpServer;
let auditPath: string;
const logs: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-proxy-hostile-http-'));
  auditPath = join(folder, 'audit.jsonl');
  hostile = await startHostileHttpServer(3_000);
  good = await startHttpUpstream();
  const config = parseProxyConfig(
    {
      servers: { bad: { url: hostile.url }, good: { url: good.url } },
      // The slow call's own timeout; the bad server's other answers come at once.
      timeouts: { tools: { 'bad.slow': 2_000 } },
      audit: { jsonl: auditPath },
      auth: 'none',
    },
    'test config',
  );
  proxy = await createMcpProxy({ config, onLog: (line) => logs.push(line) });
  front = await serveMcpProxyHttp(proxy, { host: '127.0.0.1', port: 0, authenticate: 'none' });
}, TIMEOUT_MS);

afterAll(async () => {
  await front?.close();
  await proxy?.close();
  await hostile?.stop();
  await good?.stop();
  await rm(folder, { recursive: true, force: true });
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'hostile-http-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(front.url)));
  return client;
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content[0]?.text ?? '').toString();
}

describe('a remote server that answers badly over HTTP', () => {
  it("a list of thousands of tools: the server's first DEFAULT_MCP_MAX_TOOLS kept, said once; the other server's all there", async () => {
    const client = await connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    const bad = names.filter((name) => name.startsWith('bad.'));
    expect(bad).toHaveLength(DEFAULT_MCP_MAX_TOOLS);
    expect(bad).toEqual(expect.arrayContaining(['bad.fine', 'bad.huge', 'bad.slow']));
    expect(names).toContain('good.echo');
    // Said, and not one line per tool left out.
    expect(logs).toContain(`server bad: lists 3000 tools; the first ${DEFAULT_MCP_MAX_TOOLS} are kept`);
    expect(logs.length).toBeLessThan(10);
    await client.close();
  });

  it.each([
    ['huge', /over 33554432 bytes|not reachable|could not|failed/i],
    ['garbage', /./],
    ['not-rpc', /./],
    ['html', /./],
  ])(
    '%s: an isError result with a code, the session and the server still serving',
    async (tool) => {
      const client = await connect();
      const result = await client.callTool({ name: `bad.${tool}`, arguments: {} });
      expect(result.isError).toBe(true);
      expect(result._meta?.['toolwarden/code']).toBe('INTERNAL_ERROR');
      expect(textOf(result)).toMatch(/do not repeat this call/);
      // The text names the tool as the client called it, not by the chain's name without the dot.
      expect(textOf(result)).toContain(`'bad.${tool}'`);
      expect(textOf(result)).not.toContain(`bad_${tool}`);
      expect(textOf(await client.callTool({ name: 'bad.fine', arguments: {} }))).toBe('fine answered');
      expect(textOf(await client.callTool({ name: 'good.echo', arguments: { text: 'ok' } }))).toBe('ok');
      await client.close();
    },
    TIMEOUT_MS,
  );

  it(
    'a call never answered ends at its timeout; another session is served meanwhile',
    async () => {
      const waiting = await connect();
      const other = await connect();
      const pending = waiting.callTool({ name: 'bad.slow', arguments: {} });
      expect(textOf(await other.callTool({ name: 'bad.fine', arguments: {} }))).toBe('fine answered');
      expect(textOf(await other.callTool({ name: 'good.echo', arguments: { text: 'meanwhile' } }))).toBe(
        'meanwhile',
      );
      const slow = await pending;
      expect(slow.isError).toBe(true);
      expect(slow._meta?.['toolwarden/code']).toBe('TOOL_UNAVAILABLE');
      await waiting.close();
      await other.close();
    },
    TIMEOUT_MS,
  );

  it('every call is in the audit log, each with its outcome', async () => {
    await proxy.flushAudit();
    const calls = readFileSync(auditPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; toolName?: string; outcome?: string })
      .filter((record) => record.kind === 'call' && record.toolName?.startsWith('bad.') === true);
    const made = hostile.calls.filter((name) => name !== 'fine');
    for (const tool of ['huge', 'garbage', 'not-rpc', 'html', 'slow']) {
      expect(made).toContain(tool);
      const records = calls.filter((record) => record.toolName === `bad.${tool}`);
      expect(records).toHaveLength(1);
      expect(records[0]?.outcome).not.toBe('success');
    }
    expect(calls.filter((record) => record.toolName === 'bad.fine').length).toBe(
      hostile.calls.filter((name) => name === 'fine').length,
    );
  });
});
