// The proxy in front of a small stdio server of the tests' own: the environment it passes on, the tool
// list change it relays, a broken result and a timeout answered as isError results.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import type { McpProxy } from './mcp-proxy.js';
import { createMcpProxy } from './mcp-proxy-server.js';
import { parseProxyConfig } from './proxy/proxy-config.js';

const SERVER = fileURLToPath(new URL('./__fixtures__/stdio-test-server.mjs', import.meta.url));
let proxy: McpProxy;

beforeAll(async () => {
  proxy = await createMcpProxy({
    config: parseProxyConfig(
      {
        timeouts: { tools: { slow: 200 } },
        upstream: { env: { pass: ['LANG', 'NOT_SET_ANYWHERE'], set: { FIXED: '1' } } },
      },
      'test',
    ),
    upstream: {
      command: process.execPath,
      args: [SERVER],
      stderr: 'ignore',
      env: { LANG: 'C.UTF-8', SECRET_TOKEN: 'do-not-pass', PATH: process.env.PATH, HOME: '/tmp' },
    },
  });
}, SPAWN_TIMEOUT_MS);
afterAll(async () => {
  await proxy?.close();
});

async function connect(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'upstream-test', version: '0' });
  const session = proxy.serve(serverSide);
  await client.connect(clientSide);
  await session;
  return client;
}

const text = (result: object) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('the proxy and its upstream', () => {
  it("the server gets only the variables the config names (pass, set) and the SDK's safe list", async () => {
    const client = await connect();
    const names = JSON.parse(text(await client.callTool({ name: 'env', arguments: {} }))) as string[];
    expect(names).toContain('LANG');
    expect(names).toContain('FIXED');
    expect(names).not.toContain('SECRET_TOKEN');
    expect(names).not.toContain('NOT_SET_ANYWHERE');
    expect(
      names
        .filter((name) => !['LANG', 'FIXED'].includes(name))
        .every((name) => ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].includes(name)),
    ).toBe(true);
    await client.close();
  });

  it('a broken upstream answer (a content part of type 42): an isError result with TOOL_ERROR, not a JSON-RPC error', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'broken', arguments: {} });
    expect(result).toMatchObject({ isError: true, _meta: { 'toolwarden/code': 'TOOL_ERROR' } });
    expect(text(result)).toMatch(/^TOOL_ERROR: Tool 'broken' failed; its error text is withheld\./);
    await client.close();
  });

  it('a call over its configured timeout: an isError result, and the session goes on', async () => {
    const client = await connect();
    const late = await client.callTool({ name: 'slow', arguments: { ms: 2_000 } });
    expect(late).toMatchObject({ isError: true, _meta: { 'toolwarden/code': 'TOOL_UNAVAILABLE' } });
    expect(text(late)).toMatch(/^TOOL_UNAVAILABLE: Tool 'slow' is temporarily unavailable/);
    expect(await client.callTool({ name: 'slow', arguments: { ms: 1 } })).toEqual({
      content: [{ type: 'text', text: 'done' }],
    });
    await client.close();
  });

  it("the upstream's list change: the client is told, lists the new tool and can call it", async () => {
    const client = await connect();
    let told = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told++;
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('grown');
    await client.callTool({ name: 'grow', arguments: {} });
    await expect.poll(() => told).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('grown');
    expect(text(await client.callTool({ name: 'grown', arguments: {} }))).toBe('I am new');
    await client.close();
  });
});
