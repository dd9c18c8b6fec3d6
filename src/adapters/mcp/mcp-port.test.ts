// The core through a port of one's own (no SDK): hostile results, the failure kinds of both SDK lines.
import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../../chain/runtime.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { classifyMcpFailure, mcpFailureKind } from './classify-mcp-failure.js';
import { fromMcpClient } from './from-mcp-client.js';
import { McpCallError } from './mcp-call-error.js';
import type { McpClientPort } from './mcp-client-port.js';
import { toMcpClientPort } from './to-mcp-client-port.js';

const TOOL = { name: 'get', inputSchema: { type: 'object' } };

function port(answer: () => unknown): McpClientPort {
  return {
    listTools: async () => ({ tools: [TOOL] }),
    callTool: async () => answer(),
    onToolsChanged: () => () => {},
  };
}

async function call(answer: () => unknown) {
  const mcp = await fromMcpClient(port(answer));
  return createToolRuntime({ tools: mcp.tools }).executeToolCall({ name: 'get', arguments: {} });
}

describe('a port of your own', () => {
  it.each([
    ['a string', 'three'],
    ['null', null],
    ['an array', []],
    ['a number', 3],
  ])('a result that is %s is INTERNAL_ERROR, kind broken', async (_name, raw) => {
    expect(await call(() => raw)).toMatchObject({ code: 'INTERNAL_ERROR', errorClass: 'fatal' });
  });

  it('keeps at most 1000 content parts of a huge result', async () => {
    const parts = Array.from({ length: 5_000 }, () => ({ type: 'text', text: 'x' }));
    const outcome = await call(() => ({ content: parts }));
    expect(outcome.type === 'answered' && (outcome.value as { content: unknown[] }).content).toHaveLength(
      1_000,
    );
  });

  it('refuses what is not a client, with a clear error', async () => {
    for (const client of [null, 42, {}, { callTool() {} }]) {
      await expect(fromMcpClient(client as never)).rejects.toThrow(InvalidOptionsError);
    }
    expect(toMcpClientPort(undefined)).toBeUndefined();
  });
});

describe('failure kinds', () => {
  it.each([
    [{ code: -32000 }, 'transient'],
    [{ code: -32001 }, 'transient'],
    [{ code: 'REQUEST_TIMEOUT' }, 'transient'],
    [{ code: 'CONNECTION_CLOSED' }, 'transient'],
    [{ code: 'NOT_CONNECTED' }, 'transient'],
    [new Error('Not connected'), 'transient'],
    [{ code: -32602 }, 'protocol'],
    [{ code: -32603 }, 'protocol'],
    [{ code: 42 }, 'protocol'],
    [new Error('something else'), 'protocol'],
    [{ code: -32700 }, 'broken'],
    [{ code: 'INVALID_RESULT' }, 'broken'],
    [{ code: 'SOME_NEW_SDK_CODE' }, 'broken'],
    [{ code: 1.5 }, 'protocol'],
    [new SyntaxError('Unexpected end of JSON input'), 'broken'],
    [Object.assign(new Error('[…]'), { name: 'ZodError' }), 'broken'],
    [new (class StreamableHTTPError extends Error {})('Unexpected content type: text/html'), 'protocol'],
    [
      Object.assign(new (class StreamableHTTPError extends Error {})('Unexpected content type'), {
        code: -1,
      }),
      'broken',
    ],
    [{ code: -1 }, 'protocol'],
    [{ code: 'RESPONSE_TOO_LARGE' }, 'broken'],
  ])('%o is %s', (error, kind) => {
    expect(mcpFailureKind(error).kind).toBe(kind);
  });

  it('reads a code whose getter throws as no code', () => {
    const hostile = Object.defineProperty({}, 'code', {
      get() {
        throw new Error('no');
      },
    });
    expect(mcpFailureKind(hostile)).toEqual({ kind: 'protocol', rpcCode: undefined });
  });

  it('classifies only its own errors', () => {
    expect(classifyMcpFailure(new Error('x'))).toBeUndefined();
    const error = (kind: McpCallError['kind']) => new McpCallError({ kind, toolName: 't', message: 'm' });
    expect(
      ['tool', 'protocol', 'transient', 'broken'].map((kind) => classifyMcpFailure(error(kind as never))),
    ).toEqual(['invalid-input', 'invalid-input', 'transient', 'fatal']);
  });
});

describe('the trust rule in a loop', () => {
  const counting = () => {
    let runs = 0;
    const port: McpClientPort = {
      listTools: async () => ({
        tools: [{ name: 'get', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      }),
      callTool: async () => ({ content: [{ type: 'text', text: `run ${++runs}` }] }),
      onToolsChanged: () => () => {},
    };
    return port;
  };
  const twice = async (trusted: boolean) => {
    const mcp = await fromMcpClient(counting(), { trusted });
    const model = new ScriptedModel({
      script: [
        assistantWithCalls([{ name: 'get' }]),
        assistantWithCalls([{ name: 'get' }]),
        { role: 'assistant', content: 'x' },
      ],
    });
    const outcome = await runToolLoop({
      model,
      tools: mcp.tools,
      messages: [{ role: 'user', content: 'go' }],
    });
    return outcome.messages.filter((message) => message.role === 'tool').map((message) => message.content);
  };

  it('untrusted, a readOnlyHint tool is of unknown effect: the second call runs, never answered from a record', async () => {
    // The answer changed between the calls (a file edited in between): a record would have given "run 1".
    expect(await twice(false)).toEqual(['run 1', 'run 2']);
  });

  it('trusted, it is a read: both calls run', async () => {
    expect(await twice(true)).toEqual(['run 1', 'run 2']);
  });
});
