// What a server can send that it should not, through the v1 SDK client and an in-memory transport.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolCallAnswer } from '../../chain/runtime.js';
import { createToolRuntime } from '../../chain/runtime.js';
import { DEFAULT_MCP_MAX_DESCRIPTION_CHARS } from '../../core/defaults.js';
import { listing, type RawHandler, type RawServer, rawServer, SUM_TOOL } from './__fixtures__/raw-server.js';
import { type FromMcpClientOptions, fromMcpClient, type McpTools } from './from-mcp-client.js';
import { McpListError } from './list-mcp-tools.js';
import { McpCallError } from './mcp-call-error.js';

let server: RawServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

async function toolsOf(
  handlers: Readonly<Record<string, RawHandler>>,
  options: FromMcpClientOptions = {},
): Promise<McpTools> {
  server = await rawServer(handlers);
  return fromMcpClient(server.client, { listen: false, ...options });
}

async function callSum(handler: RawHandler, options: FromMcpClientOptions = {}): Promise<ToolCallAnswer> {
  const mcp = await toolsOf({ 'tools/list': listing([SUM_TOOL]), 'tools/call': handler }, options);
  const outcome = await createToolRuntime({ tools: mcp.tools }).executeToolCall({
    name: 'sum',
    arguments: { a: 1, b: 2 },
  });
  if (outcome.type !== 'answered') throw new Error('interrupted');
  return outcome;
}

const errorOf = (answer: ToolCallAnswer) =>
  answer.result.type === 'error' ? answer.result.error : undefined;

describe('results', () => {
  it('an isError result whose structuredContent breaks the outputSchema is the tool error, not -32602', async () => {
    const broken: RawHandler = () => ({
      result: {
        content: [{ type: 'text', text: 'b must be positive' }],
        structuredContent: { n: 'x' },
        isError: true,
      },
    });
    const answer = await callSum(broken);
    expect(answer).toMatchObject({ code: 'TOOL_ERROR', errorClass: 'invalid-input' });
    expect(answer.content).toBe('TOOL_ERROR: b must be positive');
    // The v1 SDK's own callTool, on the same server, throws instead (what fromMcpClient does not inherit).
    await server?.client.listTools();
    await expect(server?.client.callTool({ name: 'sum', arguments: { a: 1, b: 2 } })).rejects.toThrow(
      /MCP error -32602: Structured content does not match the tool's output schema/,
    );
  });

  it('the same through the v2 client', async () => {
    server = await rawServer(
      {
        'tools/list': listing([SUM_TOOL]),
        'tools/call': () => ({
          result: {
            content: [{ type: 'text', text: 'b must be positive' }],
            structuredContent: { n: 'x' },
            isError: true,
          },
        }),
      },
      'v2',
    );
    const mcp = await fromMcpClient(server.client, { listen: false });
    const outcome = await createToolRuntime({ tools: mcp.tools }).executeToolCall({
      name: 'sum',
      arguments: { a: 1, b: 2 },
    });
    expect(outcome).toMatchObject({ code: 'TOOL_ERROR', content: 'TOOL_ERROR: b must be positive' });
  });

  it('keeps the isError result for the caller on the error', async () => {
    const answer = await callSum(() => ({
      result: { content: [{ type: 'text', text: 'no' }], isError: true },
    }));
    const cause = (errorOf(answer) as Error).cause;
    expect(McpCallError.isInstance(cause)).toBe(true);
    expect((cause as McpCallError).result).toEqual({
      content: [{ type: 'text', text: 'no' }],
      isError: true,
    });
  });

  it('an isError text is redacted before the model reads it', async () => {
    const text = 'insert failed: postgres://app:S3cr3tPass@db.internal:5432/shop refused';
    const answer = await callSum(() => ({ result: { content: [{ type: 'text', text }], isError: true } }));
    expect(answer.code).toBe('TOOL_ERROR');
    expect(answer.content).not.toContain('S3cr3tPass');
  });

  it('a successful result that breaks the outputSchema is CONTRACT_VIOLATION; one without structuredContent too', async () => {
    for (const result of [
      { content: [{ type: 'text', text: '{"n":"x"}' }], structuredContent: { n: 'x' } },
      { content: [{ type: 'text', text: '3' }] },
    ]) {
      const answer = await callSum(() => ({ result }));
      expect(answer).toMatchObject({ code: 'CONTRACT_VIOLATION', isError: true });
      expect(answer.result.contractViolation).toBe(true);
      await server?.close();
    }
    const good = await callSum(() => ({
      result: { content: [{ type: 'text', text: '3' }], structuredContent: { n: 3 } },
    }));
    expect(good).toMatchObject({ isError: false, content: '{"n":3}' });
  });

  it.each([
    ['a string', 'three'],
    ['null', null],
    ['an array', [1, 2]],
  ])(
    'a result that is %s is dropped by the v1 SDK (the response is not a JSON-RPC result): the timeout ends the call',
    async (_name, result) => {
      // The tool timeout passes on a fake clock.
      vi.useFakeTimers();
      const answering = callSum(() => ({ result }), { tool: () => ({ timeoutMs: 100 }) });
      await vi.advanceTimersByTimeAsync(100);
      const answer = await answering;
      expect(answer).toMatchObject({ code: 'TOOL_UNAVAILABLE', errorClass: 'transient' });
    },
  );

  it.each([
    ['content that is not an array', { content: 'three' }],
    ['a part without a type', { content: [{ text: 'three' }] }],
    ['isError that is not a boolean', { content: [], isError: 'yes' }],
    ['no content at all', {}],
  ])('a result that is %s is INTERNAL_ERROR (a broken server), never a crash', async (_name, result) => {
    const answer = await callSum(() => ({ result }));
    expect(answer).toMatchObject({ code: 'INTERNAL_ERROR', errorClass: 'fatal' });
    expect((errorOf(answer) as McpCallError).kind).toBe('broken');
  });
});

describe('JSON-RPC errors', () => {
  const rpc =
    (code: number, message: string): RawHandler =>
    () => ({ error: { code, message } });

  it.each([
    [-32602, 'invalid-input', 'TOOL_ERROR', 'protocol'],
    [-32603, 'invalid-input', 'TOOL_ERROR', 'protocol'],
    [-31999, 'invalid-input', 'TOOL_ERROR', 'protocol'],
    [-32600, 'fatal', 'INTERNAL_ERROR', 'broken'],
    [-32601, 'fatal', 'INTERNAL_ERROR', 'broken'],
    [-32001, 'transient', 'TOOL_UNAVAILABLE', 'transient'],
  ])('code %d is %s (%s, kind %s)', async (code, errorClass, toolCode, kind) => {
    const answer = await callSum(rpc(code, 'password=hunter2 at /srv/app/db.js:12'), {
      tool: () => ({ retries: 0 }),
    });
    expect(answer).toMatchObject({ errorClass, code: toolCode });
    expect(errorOf(answer)).toMatchObject({ kind, rpcCode: code });
    expect(answer.content).not.toContain('hunter2');
  });

  it("withholds the server's text by default; showErrorMessages opens it, redacted", async () => {
    const text = 'relation "users" does not exist (password=hunter2)';
    const closed = await callSum(rpc(-32603, text));
    expect(closed.content).toMatch(/^TOOL_ERROR: Tool 'sum' failed; its error text is withheld\./);
    await server?.close();
    const open = await callSum(rpc(-32603, text), { showErrorMessages: true });
    expect(open.content).toBe(
      'TOOL_ERROR: MCP error -32603: relation [redacted:identifier] does not exist (password=[redacted:secret])',
    );
    expect(open.content).not.toContain('hunter2');
  });

  it('a server that never answers: the tool timeout ends the call as TOOL_UNAVAILABLE', async () => {
    // The tool timeout passes on a fake clock.
    vi.useFakeTimers();
    const answering = callSum(() => 'hang', { tool: () => ({ timeoutMs: 50 }) });
    await vi.advanceTimersByTimeAsync(50);
    const answer = await answering;
    expect(answer).toMatchObject({ code: 'TOOL_UNAVAILABLE', errorClass: 'transient' });
  });

  it('a closed connection is transient', async () => {
    const mcp = await toolsOf({ 'tools/list': listing([SUM_TOOL]) });
    await server?.close();
    const outcome = await createToolRuntime({ tools: mcp.tools }).executeToolCall({
      name: 'sum',
      arguments: { a: 1, b: 2 },
    });
    expect(outcome).toMatchObject({ code: 'TOOL_UNAVAILABLE', errorClass: 'transient' });
  });
});

describe('tool lists', () => {
  it('leaves out what cannot be a tool and keeps the rest', async () => {
    const mcp = await toolsOf({
      'tools/list': listing([
        SUM_TOOL,
        { name: 'x'.repeat(300), inputSchema: { type: 'object' } },
        { name: 'no-schema' },
        { name: 'bad-schema', inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } },
        { name: 'array-args', inputSchema: { type: 'array' } },
        {
          name: 'bad-output',
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', required: 'n' },
        },
        { name: 'bad-hint', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes' } },
        null,
        'sum',
        SUM_TOOL,
      ]),
    });
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['sum']);
    expect(mcp.skipped.map((skip) => [skip.index, skip.name])).toEqual([
      [1, undefined],
      [2, 'no-schema'],
      [3, 'bad-schema'],
      [4, 'array-args'],
      [5, 'bad-output'],
      [6, 'bad-hint'],
      [7, undefined],
      [8, undefined],
      [9, 'sum'],
    ]);
    expect(mcp.skipped[8]?.problem).toBe('another tool of the list has this name');
  });

  it('maps names providers refuse, cuts a huge description, and calls the server by its own name', async () => {
    const tool = { name: 'files.read', description: 'd'.repeat(100_000), inputSchema: { type: 'object' } };
    const mcp = await toolsOf({
      'tools/list': listing([tool]),
      'tools/call': () => ({ result: { content: [{ type: 'text', text: 'ok' }] } }),
    });
    expect(mcp.tools[0]?.name).toBe('files_read');
    expect(mcp.tools[0]?.description).toHaveLength(DEFAULT_MCP_MAX_DESCRIPTION_CHARS);
    expect(mcp.nameMap.toOriginal('files_read')).toBe('files.read');
    const outcome = await createToolRuntime({ tools: mcp.tools }).executeToolCall({
      name: 'files_read',
      arguments: {},
    });
    expect(outcome).toMatchObject({ isError: false, content: 'ok' });
    expect(server?.requests.at(-1)).toMatchObject({ method: 'tools/call', params: { name: 'files.read' } });
  });

  it('reads every page, and refuses a cursor that repeats or never ends', async () => {
    const paged: RawHandler = (params) =>
      params.cursor === undefined
        ? { result: { tools: [SUM_TOOL], nextCursor: 'p2' } }
        : { result: { tools: [{ ...SUM_TOOL, name: 'sum2' }] } };
    expect((await toolsOf({ 'tools/list': paged })).tools.map((tool) => tool.name)).toEqual(['sum', 'sum2']);
    await server?.close();
    await expect(
      toolsOf({ 'tools/list': () => ({ result: { tools: [], nextCursor: 'again' } }) }),
    ).rejects.toThrow(McpListError);
    await server?.close();
    let page = 0;
    const endless: RawHandler = () => ({ result: { tools: [], nextCursor: `p${page++}` } });
    await expect(toolsOf({ 'tools/list': endless }, { maxPages: 5 })).rejects.toThrow(/more than 5 pages/);
    expect(page).toBe(5);
  });

  it('keeps at most maxTools tools of a huge list, and refuses a schema with __proto__', async () => {
    const many = Array.from({ length: 600 }, (_, index) => ({ ...SUM_TOOL, name: `t${index}` }));
    const hostile = JSON.parse(
      '{"name":"proto","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"}}}}',
    );
    const mcp = await toolsOf({ 'tools/list': listing([hostile, ...many]) });
    expect(mcp.tools).toHaveLength(511);
    expect(mcp.skipped[0]).toMatchObject({ index: 0, name: 'proto' });
    expect(mcp.skipped.slice(1).every((skip) => skip.problem === 'more than 512 tools (maxTools)')).toBe(
      true,
    );
    expect(mcp.skipped).toHaveLength(90);
  });

  it('a name with control characters or spaces is mapped, never passed to a provider as it is', async () => {
    const mcp = await toolsOf({
      'tools/list': listing([{ name: 'read file\u0007', inputSchema: { type: 'object' } }]),
    });
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['read_file_']);
    expect(mcp.nameMap.toOriginal('read_file_')).toBe('read file\u0007');
  });

  it('refuses a tools/list answer without a tools array', async () => {
    await expect(toolsOf({ 'tools/list': () => ({ result: { tools: 'all' } }) })).rejects.toThrow(
      McpListError,
    );
  });
});
