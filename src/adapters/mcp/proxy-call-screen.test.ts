// proxyCall with the screen, in process: secrets both ways, a withheld tool, rate limits, and what the
// audit records say (the rule, never the secret). An MCP client port that answers from a table, no server.
import { describe, expect, it } from 'vitest';
import { memoryAuditSink } from '../../audit/__fixtures__/memory-audit-sink.js';
import type { AuditCallRecord } from '../../audit/audit-record.js';
import { defaultSchemaCompiler } from '../../schema/schema-compiler.js';
import { MemoryStore } from '../../store/memory-store.js';
import { mcpToolsOf } from './from-mcp-client.js';
import type { McpClientPort } from './mcp-client-port.js';
import type { ProxiedTool } from './proxy/mcp-shapes.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { proxyScreen } from './proxy/proxy-screen-of.js';
import { createSessionPolicy } from './proxy/session-policy.js';
import { createSessionAudit } from './proxy-audit.js';
import { type ProxyCallContext, proxyCall } from './proxy-call.js';
import { proxyRuntime, proxyToolSettings } from './proxy-tool-settings.js';

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}xyzw12`;
const TOOLS: ProxiedTool[] = [
  { name: 'echo', inputSchema: { type: 'object' } } as ProxiedTool,
  { name: 'leak', inputSchema: { type: 'object' } } as ProxiedTool,
];

/** `echo` says its arguments back; `leak` answers with a token in its text and its structured content. */
function port(): McpClientPort & { readonly sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    sent,
    listTools: async () => ({ tools: TOOLS }),
    callTool: async (name, args) => {
      sent.push(args);
      return name === 'leak'
        ? { content: [{ type: 'text', text: `the key is ${TOKEN}` }], structuredContent: { key: TOKEN } }
        : { content: [{ type: 'text', text: JSON.stringify(args) }] };
    },
    onToolsChanged: () => () => {},
  };
}

async function setup(config: Record<string, unknown>, clientId = 'alice') {
  const parsed = parseProxyConfig({ loopGuard: false, ...config }, 'test');
  const compiler = defaultSchemaCompiler();
  const upstream = port();
  const mcp = await mcpToolsOf(
    upstream,
    { tool: proxyToolSettings(parsed, compiler), schemaCompiler: compiler, listen: false },
    { asSent: true },
  );
  const store = new MemoryStore();
  const sink = memoryAuditSink();
  const runtime = proxyRuntime(mcp.tools, parsed, { store, wrapToolExecution: undefined });
  const lines: string[] = [];
  const { screen, pins } = proxyScreen(parsed, { store, audit: sink }, { command: 'server' }, (line) =>
    lines.push(line),
  );
  const context: ProxyCallContext = {
    config: parsed,
    policy: createSessionPolicy({ config: parsed, tools: TOOLS }),
    audit: createSessionAudit(sink, 's', clientId),
    sessionId: 's',
    idempotencyScope: 's',
    runtime: () => runtime,
    chainName: (name) => name,
    confirm: async () => 'unavailable',
    screen,
    clientId,
  };
  const call = (name: string, args: unknown) => proxyCall(context, name, args, new AbortController().signal);
  const records = () => sink.records.filter((record): record is AuditCallRecord => record.kind === 'call');
  return { call, upstream, records, sink, pins, lines };
}

describe('proxyCall: secrets both ways', () => {
  it('by default blocks a secret in the arguments before it leaves, and says which rule to the model and the audit', async () => {
    const { call, upstream, records, sink } = await setup({});
    const result = await call('echo', { text: `use ${TOKEN}` });
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'SECRET_DETECTED: The arguments of this call to echo hold a secret (rule: key); the call was not sent. Do not put keys, tokens or passwords in tool arguments.',
        },
      ],
      isError: true,
      _meta: { 'toolwarden/code': 'SECRET_DETECTED' },
    });
    expect(upstream.sent).toEqual([]);
    expect(records()).toEqual([
      expect.objectContaining({
        toolName: 'echo',
        outcome: 'denied',
        code: 'SECRET_DETECTED',
        clientId: 'alice',
        secrets: [{ in: 'arguments', rules: ['key'], action: 'blocked' }],
      }),
    ]);
    expect(JSON.stringify(sink.records)).not.toContain(TOKEN);
  });

  it("tells the operator's log of a secret once per tool and finding, never the secret", async () => {
    const { call, lines } = await setup({});
    await call('echo', { text: `use ${TOKEN}` });
    await call('echo', { text: `again ${TOKEN}` });
    await call('leak', {});
    expect(lines).toEqual([
      'secret in the arguments of echo (rule: key): blocked; "secrets" in the config sets what it does (said once per tool)',
      'secret in the result of leak (rule: key): redacted; "secrets" in the config sets what it does (said once per tool)',
    ]);
  });

  it('by default redacts a secret in a successful result: the model gets the rest, the audit the rule', async () => {
    const { call, records, sink } = await setup({});
    const result = await call('leak', {});
    expect(result).toEqual({
      content: [{ type: 'text', text: 'the key is [redacted:key]' }],
      structuredContent: { key: '[redacted:key]' },
    });
    expect(records()).toEqual([
      expect.objectContaining({
        toolName: 'leak',
        outcome: 'success',
        secrets: [{ in: 'result', rules: ['key'], action: 'redacted' }],
      }),
    ]);
    expect(records()[0]?.code).toBeUndefined();
    expect(JSON.stringify(sink.records)).not.toContain(TOKEN);
  });

  it('per tool: redacts arguments (the server gets the marker), blocks a result (the call ran), or only audits', async () => {
    const { call, upstream, records } = await setup({
      secrets: { tools: { echo: { arguments: 'redact' }, leak: { results: 'block' } } },
    });
    const echoed = await call('echo', { text: `use ${TOKEN}` });
    expect(upstream.sent).toEqual([{ text: 'use [redacted:key]' }]);
    expect(echoed.content).toEqual([{ type: 'text', text: '{"text":"use [redacted:key]"}' }]);
    const withheld = await call('leak', {});
    expect(withheld.content).toEqual([
      {
        type: 'text',
        text: 'SECRET_DETECTED: The call to leak ran, but its result holds a secret (rule: key) and was withheld. Do not repeat the call to see it.',
      },
    ]);
    expect(records().map((record) => [record.toolName, record.outcome, record.code, record.secrets])).toEqual(
      [
        ['echo', 'success', undefined, [{ in: 'arguments', rules: ['key'], action: 'redacted' }]],
        ['leak', 'success', 'SECRET_DETECTED', [{ in: 'result', rules: ['key'], action: 'blocked' }]],
      ],
    );
    const audited = await setup({ secrets: { arguments: 'audit', results: 'audit' } });
    expect((await audited.call('leak', { text: TOKEN })).content).toEqual([
      { type: 'text', text: `the key is ${TOKEN}` },
    ]);
    expect(audited.records()[0]?.secrets).toEqual([
      { in: 'arguments', rules: ['key'], action: 'audited' },
      { in: 'result', rules: ['key'], action: 'audited' },
    ]);
  });

  it('secrets: false scans nothing', async () => {
    const { call, upstream } = await setup({ secrets: false });
    expect((await call('echo', { text: TOKEN })).isError).toBeUndefined();
    expect(upstream.sent).toEqual([{ text: TOKEN }]);
  });
});

describe('proxyCall: pins and rate limits', () => {
  it('refuses a call to a tool withheld for its changed definition, before anything runs', async () => {
    const { call, upstream, records, pins } = await setup({});
    await pins?.review(TOOLS);
    await pins?.review([
      { ...TOOLS[0], description: 'now with instructions' } as ProxiedTool,
      TOOLS[1] as ProxiedTool,
    ]);
    const result = await call('echo', { text: 'hi' });
    expect(result._meta).toEqual({ 'toolwarden/code': 'TOOL_DEFINITION_CHANGED' });
    expect(upstream.sent).toEqual([]);
    expect(records()[0]).toMatchObject({ outcome: 'denied', code: 'TOOL_DEFINITION_CHANGED' });
  });

  it('flags a call to a changed tool under onChange "flag": it runs, its record carries the new digest', async () => {
    const { call, records, pins } = await setup({ pins: { onChange: 'flag' } });
    await pins?.review(TOOLS);
    await pins?.review([{ ...TOOLS[0], description: 'changed' } as ProxiedTool, TOOLS[1] as ProxiedTool]);
    expect((await call('echo', { text: 'hi' })).isError).toBeUndefined();
    expect(records()[0]?.toolDefinitionChanged).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('refuses a call past a rate limit with when to retry (text and _meta), and audits which limit', async () => {
    const { call, upstream, records, lines } = await setup({
      rateLimits: { tools: { echo: { perHour: 1 } } },
    });
    await call('echo', { text: 'one' });
    const refused = await call('echo', { text: 'two' });
    expect(refused.content[0]?.text).toMatch(
      /^RATE_LIMITED: The limit of 1 calls to echo per hour for this client is reached; try again in \d+ s\.$/,
    );
    expect(refused._meta?.['toolwarden/retryAfterMs']).toBeGreaterThan(0);
    expect(upstream.sent).toHaveLength(1);
    await call('echo', { text: 'three' });
    expect(lines).toEqual([
      expect.stringMatching(
        /^client alice: The limit of 1 calls to echo per hour for this client is reached; its calls are refused until \d{4}-\d\d-\d\dT[\d:.]+Z$/,
      ),
    ]);
    expect(records()[1]).toMatchObject({
      outcome: 'denied',
      code: 'RATE_LIMITED',
      denialReason: refused.content[0]?.text,
    });
  });
});
