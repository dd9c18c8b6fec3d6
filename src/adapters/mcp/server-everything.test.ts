// The tools of the real server-everything (spawned over stdio), through the v1 and the v2 SDK client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCallAnswer, ToolCallOutcome } from '../../chain/runtime.js';
import { createToolRuntime, resolvedRuntime } from '../../chain/runtime.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { connectV1, connectV2, countingPort, portOf, SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import { fromMcpClient, type McpTools } from './from-mcp-client.js';
import { McpCallError } from './mcp-call-error.js';
import type { McpToolResult } from './read-call-result.js';

const EVERYTHING = '@modelcontextprotocol/server-everything';

function answered(outcome: ToolCallOutcome): ToolCallAnswer {
  if (outcome.type !== 'answered') throw new Error('the call was interrupted');
  return outcome;
}

describe.each([
  ['v1 (@modelcontextprotocol/sdk)', connectV1],
  ['v2 (@modelcontextprotocol/client)', connectV2],
])('server-everything through the %s client', (_line, connect) => {
  let client: Awaited<ReturnType<typeof connectV1>> | Awaited<ReturnType<typeof connectV2>>;
  let port: ReturnType<typeof countingPort>;
  let mcp: McpTools;

  beforeAll(async () => {
    client = await connect(EVERYTHING, ['stdio']);
    port = countingPort(portOf(client));
    mcp = await fromMcpClient(port);
  }, SPAWN_TIMEOUT_MS);
  afterAll(async () => {
    mcp?.close();
    await client?.close();
  });

  const call = async (name: string, args: unknown, signal?: AbortSignal) =>
    answered(
      await createToolRuntime({ tools: mcp.tools }).executeToolCall(
        { name, arguments: args },
        { ...(signal === undefined ? {} : { signal }) },
      ),
    );

  it('lists the 13 tools; untrusted, every one is of unknown effect, whatever its readOnlyHint says', () => {
    expect(mcp.tools).toHaveLength(13);
    expect(mcp.skipped).toEqual([]);
    expect(mcp.tools.every((tool) => tool.effect === 'unknown')).toBe(true);
    expect(mcp.info('echo')).toMatchObject({
      effect: 'unknown',
      destructive: false,
      idempotent: false,
      trusted: false,
      hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
    const structured = mcp.tools.find((tool) => tool.name === 'get-structured-content');
    expect(structured?.outputJsonSchema).toMatchObject({ type: 'object' });
    expect(structured?.inputJsonSchema).toMatchObject({ required: ['location'] });
  });

  it('trusted, readOnlyHint makes read tools and idempotentHint an idempotent write (retried)', async () => {
    const trusted = await fromMcpClient(client, { trusted: true, listen: false });
    const effect = Object.fromEntries(trusted.tools.map((tool) => [tool.name, tool.effect]));
    expect(effect).toMatchObject({ echo: 'read', 'get-sum': 'read', 'toggle-simulated-logging': 'write' });
    expect(trusted.info('gzip-file-as-resource')).toMatchObject({
      effect: 'idempotent-write',
      destructive: false,
      idempotent: true,
    });
    const policy = resolvedRuntime(createToolRuntime({ tools: trusted.tools })).policy;
    const tool = (name: string) => trusted.tools.find((t) => t.name === name) as AnyTool;
    expect(policy.retriesFor(tool('gzip-file-as-resource'))).toBe(2);
    expect(policy.retriesFor(tool('toggle-simulated-logging'))).toBe(0);
    const untrustedEcho = mcp.tools.find((t) => t.name === 'echo') as AnyTool;
    expect(resolvedRuntime(createToolRuntime({ tools: mcp.tools })).policy.retriesFor(untrustedEcho)).toBe(0);
  });

  it('runs echo and get-sum in a tool loop: the model reads what the server answered', async () => {
    const model = new ScriptedModel({
      script: [
        assistantWithCalls([
          { name: 'echo', arguments: { message: 'hello' } },
          { name: 'get-sum', arguments: { a: 2, b: 40 } },
        ]),
        { role: 'assistant', content: 'done' },
      ],
    });
    const outcome = await runToolLoop({
      model,
      tools: mcp.tools,
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(outcome.type).toBe('completed');
    const toolTexts = outcome.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolTexts).toEqual(['Echo: hello', 'The sum of 2 and 40 is 42.']);
    const value = outcome.toolResults[0]?.type === 'success' ? outcome.toolResults[0].value : undefined;
    expect(value).toEqual({ content: [{ type: 'text', text: 'Echo: hello' }], isError: false });
  });

  it('shows structured content as JSON and keeps every content part for the caller', async () => {
    const answer = await call('get-structured-content', { location: 'New York' });
    expect(answer.isError).toBe(false);
    expect(answer.content).toBe('{"conditions":"Cloudy","humidity":82,"temperature":33}');
    const value = answer.value as McpToolResult;
    expect(value.structuredContent).toEqual({ temperature: 33, conditions: 'Cloudy', humidity: 82 });
    expect(value.content[0]).toMatchObject({ type: 'text' });
    expect(JSON.parse(String(value.content[0]?.text))).toEqual(value.structuredContent);
  });

  it('summarizes an image for the model; the caller keeps its bytes', async () => {
    const answer = await call('get-tiny-image', {});
    expect(answer.content).toMatch(
      /^Here's the image you requested:\n\n\[image: image\/png, \d+ bytes\]\n\n/,
    );
    const image = (answer.value as McpToolResult).content.find((part) => part.type === 'image');
    expect(typeof image?.data).toBe('string');
    expect(answer.content).not.toContain(String(image?.data).slice(0, 40));
  });

  it('refuses bad arguments with INVALID_ARGUMENTS before the server is called', async () => {
    const before = port.calls.length;
    const answer = await call('get-sum', { a: '2', b: 3 });
    expect(answer.code).toBe('INVALID_ARGUMENTS');
    expect(answer.content).toBe(
      "INVALID_ARGUMENTS: The arguments do not match the schema of tool 'get-sum': /a: must be number. Fix them and call again.",
    );
    const missing = await call('echo', {});
    expect(missing.code).toBe('INVALID_ARGUMENTS');
    expect(port.calls.length).toBe(before);
  });

  it('answers an unknown tool with UNKNOWN_TOOL, without asking the server', async () => {
    const before = port.calls.length;
    const answer = await call('no-such-tool', {});
    expect(answer.code).toBe('UNKNOWN_TOOL');
    expect(port.calls.length).toBe(before);
  });

  it('a call that outlives the tool timeout is TOOL_UNAVAILABLE (transient)', async () => {
    const slow = await fromMcpClient(client, {
      listen: false,
      tool: (info) =>
        info.originalName === 'trigger-long-running-operation' ? { timeoutMs: 200 } : undefined,
    });
    const answer = answered(
      await createToolRuntime({ tools: slow.tools }).executeToolCall({
        name: 'trigger-long-running-operation',
        arguments: { duration: 5, steps: 5 },
      }),
    );
    expect(answer).toMatchObject({ code: 'TOOL_UNAVAILABLE', errorClass: 'transient' });
    expect(answer.content).toMatch(
      /^TOOL_UNAVAILABLE: Tool 'trigger-long-running-operation' is temporarily unavailable/,
    );
  });

  it("the SDK's own request timeout (requestTimeoutMs) is a transient McpCallError", async () => {
    const slow = await fromMcpClient(client, { listen: false, requestTimeoutMs: 200 });
    const answer = answered(
      await createToolRuntime({ tools: slow.tools }).executeToolCall({
        name: 'trigger-long-running-operation',
        arguments: { duration: 5, steps: 5 },
      }),
    );
    expect(answer).toMatchObject({ code: 'TOOL_UNAVAILABLE', errorClass: 'transient' });
    const error = answer.result.type === 'error' ? answer.result.error : undefined;
    expect(McpCallError.isInstance(error)).toBe(true);
    expect([-32001, 'REQUEST_TIMEOUT']).toContain((error as McpCallError).rpcCode);
  });

  it("the caller's abort reaches the request: the call rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    setTimeout(() => controller.abort(reason), 100);
    await expect(
      call('trigger-long-running-operation', { duration: 5, steps: 5 }, controller.signal),
    ).rejects.toBe(reason);
    // The connection is still usable after the cancelled request.
    expect((await call('echo', { message: 'still here' })).content).toBe('Echo: still here');
  });
});
