// The official SDK clients (v1 and v2) → the proxy → the real server-everything over stdio: what passes
// through unchanged, what the chain refuses, what the audit log holds.
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, clientV1, clientV2, proxyFor } from './__fixtures__/proxy-client.js';
import { connectV1, SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import type { McpProxy } from './mcp-proxy.js';

const EVERYTHING = '@modelcontextprotocol/server-everything';

describe('the proxy in front of server-everything', () => {
  let direct: ClientV1;
  let proxy: McpProxy;
  let auditPath: string;

  beforeAll(async () => {
    [direct, { proxy, auditPath }] = await Promise.all([
      connectV1(EVERYTHING, ['stdio']),
      proxyFor(EVERYTHING, ['stdio'], { limits: { tools: { 'get-sum': 2 } } }),
    ]);
  }, SPAWN_TIMEOUT_MS);
  afterAll(async () => {
    await proxy?.close();
    await direct?.close();
  });

  it('lists the tools exactly as the server does (schemas and annotations intact), to v1 and v2 clients', async () => {
    const { client } = await clientV1(proxy);
    const v2 = await clientV2(proxy);
    const expected = (await direct.listTools()).tools;
    expect(expected.length).toBeGreaterThan(10);
    expect((await client.listTools()).tools).toEqual(expected);
    const seenByV2 = (await v2.client.listTools()).tools;
    expect(seenByV2.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
    expect(seenByV2.find((tool) => tool.name === 'echo')?.annotations).toEqual(
      expected.find((tool) => tool.name === 'echo')?.annotations,
    );
    await client.close();
    await v2.client.close();
  });

  it('passes echo, get-sum and structured content through unchanged, and audits each call', async () => {
    const { client, session } = await clientV1(proxy);
    for (const [name, args] of [
      ['echo', { message: 'hello through the proxy' }],
      ['get-sum', { a: 2, b: 40 }],
      ['get-structured-content', { location: 'New York' }],
    ] as const) {
      expect(await client.callTool({ name, arguments: args })).toEqual(
        await direct.callTool({ name, arguments: args }),
      );
    }
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records.map((record) => [record.toolName, record.outcome])).toEqual([
      ['echo', 'success'],
      ['get-sum', 'success'],
      ['get-structured-content', 'success'],
    ]);
    expect(records[1]).toMatchObject({
      runId: session.sessionId,
      argumentsSummary: '{"a":2,"b":40}',
      replay: false,
    });
    await client.close();
  });

  it('v2 client: the same echo result as a direct client', async () => {
    const { client } = await clientV2(proxy);
    const args = { message: 'v2' };
    expect(await client.callTool({ name: 'echo', arguments: args })).toEqual(
      await direct.callTool({ name: 'echo', arguments: args }),
    );
    await client.close();
  });

  it('bad arguments: INVALID_ARGUMENTS from toolwarden, the server never called', async () => {
    const { client, session } = await clientV1(proxy);
    const result = await client.callTool({ name: 'get-sum', arguments: { a: 'two' } });
    expect(result.isError).toBe(true);
    expect(result._meta).toEqual({ 'toolwarden/code': 'INVALID_ARGUMENTS' });
    expect((result.content as { text: string }[])[0]?.text).toMatch(/^INVALID_ARGUMENTS/);
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records).toMatchObject([
      { toolName: 'get-sum', outcome: 'invalid-input', code: 'INVALID_ARGUMENTS' },
    ]);
    await client.close();
  });

  it('a per-tool limit: the third get-sum of a session is refused TOOL_CALL_LIMIT; a new session starts afresh', async () => {
    const { client, session } = await clientV1(proxy);
    await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 1 } });
    await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
    const third = await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 3 } });
    expect(third).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/^TOOL_CALL_LIMIT: The limit of 2 calls to/) }],
      isError: true,
      _meta: { 'toolwarden/code': 'TOOL_CALL_LIMIT' },
    });
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records.map((record) => record.outcome)).toEqual(['success', 'success', 'invalid-input']);
    expect(records[2]).toMatchObject({ code: 'TOOL_CALL_LIMIT', attempts: 0 });
    const other = await clientV1(proxy);
    expect(
      (await other.client.callTool({ name: 'get-sum', arguments: { a: 1, b: 3 } })).isError,
    ).toBeUndefined();
    await client.close();
    await other.client.close();
  });

  it('an unknown tool: an isError result with UNKNOWN_TOOL, not a JSON-RPC error', async () => {
    const { client } = await clientV1(proxy);
    const result = await client.callTool({ name: 'no-such-tool', arguments: {} });
    expect(result).toMatchObject({ isError: true, _meta: { 'toolwarden/code': 'UNKNOWN_TOOL' } });
    await client.close();
  });
});
