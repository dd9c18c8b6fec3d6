// proxyCall over the chain, in process: an MCP client port that answers from a table, no SDK, no server.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../core/store.js';
import { defaultSchemaCompiler } from '../../schema/schema-compiler.js';
import { MemoryStore } from '../../store/memory-store.js';
import { mcpToolsOf } from './from-mcp-client.js';
import type { McpClientPort } from './mcp-client-port.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { createSessionPolicy } from './proxy/session-policy.js';
import { createSessionAudit } from './proxy-audit.js';
import { type ProxyCallContext, proxyCall } from './proxy-call.js';
import { proxyRuntime, proxyToolSettings } from './proxy-tool-settings.js';

const TOOLS = [
  { name: 'echo', inputSchema: { type: 'object' } },
  { name: 'fail', inputSchema: { type: 'object' } },
];

/** A server whose `echo` answers with the message, and whose `fail` answers an `isError` result. */
function port(): McpClientPort & { readonly calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    listTools: async () => ({ tools: TOOLS }),
    callTool: async (name, args) => {
      calls.push(name);
      const message = (args as { message?: string }).message ?? '';
      return name === 'fail'
        ? { content: [{ type: 'text', text: `no: ${message}` }], isError: true, _meta: { at: 1 } }
        : message === 'explicit'
          ? { content: [{ type: 'text', text: 'Echo: explicit' }], isError: false }
          : { content: [{ type: 'text', text: `Echo: ${message}` }], _meta: { at: 2 } };
    },
    onToolsChanged: () => () => {},
  };
}

/** One proxy instance's context for one session, over `store` (shared by instances when it is the same). */
async function instance(config: unknown, store: Store, sessionId: string): Promise<ProxyCallContext> {
  const parsed = parseProxyConfig(config, 'test');
  const compiler = defaultSchemaCompiler();
  const mcp = await mcpToolsOf(
    port(),
    { tool: proxyToolSettings(parsed, compiler), schemaCompiler: compiler, listen: false },
    { asSent: true },
  );
  const runtime = proxyRuntime(mcp.tools, parsed, { store, wrapToolExecution: undefined });
  return {
    config: parsed,
    policy: createSessionPolicy({ config: parsed, tools: TOOLS }),
    audit: createSessionAudit(undefined, sessionId),
    sessionId,
    idempotencyScope: sessionId,
    runtime: () => runtime,
    chainName: (name) => name,
    confirm: async () => 'unavailable',
  };
}

const call = (context: ProxyCallContext, name: string, message: string) =>
  proxyCall(context, name, { message }, new AbortController().signal);

describe('proxyCall: the chain is the policy', () => {
  it("answers the upstream's own result: as sent on success, its isError result with redactErrors false", async () => {
    const context = await instance({ redactErrors: false, loopGuard: false }, new MemoryStore(), 's');
    expect(await call(context, 'echo', 'hi')).toEqual({
      content: [{ type: 'text', text: 'Echo: hi' }],
      _meta: { at: 2 },
    });
    // A server that says `isError: false` itself keeps it; one that says nothing gets none added.
    expect(await call(context, 'echo', 'explicit')).toEqual({
      content: [{ type: 'text', text: 'Echo: explicit' }],
      isError: false,
    });
    expect(await call(context, 'fail', 'x')).toEqual({
      content: [{ type: 'text', text: 'no: x' }],
      isError: true,
      _meta: { at: 1 },
    });
  });

  it("counts the session's limits in the store: they hold across two instances sharing it", async () => {
    const config = { limits: { perTool: 5, total: 3, tools: { echo: 2 } }, loopGuard: false };
    const store = new MemoryStore();
    const first = await instance(config, store, 'conversation-1');
    const second = await instance(config, store, 'conversation-1');
    expect((await call(first, 'echo', 'a')).isError).toBeUndefined();
    expect((await call(second, 'echo', 'b')).isError).toBeUndefined();
    expect(await call(first, 'echo', 'c')).toEqual({
      content: [
        {
          type: 'text',
          text: 'TOOL_CALL_LIMIT: The limit of 2 calls to echo in this session is reached; do not call it again.',
        },
      ],
      isError: true,
      _meta: { 'toolwarden/code': 'TOOL_CALL_LIMIT' },
    });
    expect((await call(second, 'fail', 'd')).isError).toBe(true);
    expect((await call(second, 'fail', 'e')).content).toEqual([
      {
        type: 'text',
        text: 'TOOL_CALL_LIMIT: The limit of 3 tool calls in this session is reached; do not call any tool again.',
      },
    ]);
    // Another session of the same store starts afresh.
    const other = await instance(config, store, 'conversation-2');
    expect((await call(other, 'echo', 'f')).isError).toBeUndefined();
  });
});
