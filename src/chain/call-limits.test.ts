import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { ToolCallLimitExceededError } from '../core/errors/tool-call-limit-exceeded-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from '../tools/define-tool.js';
import { createReferenceTools } from './__fixtures__/reference-tools.js';
import type { CallLimits } from './call-limits.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };
const calls = (name: string, count: number) =>
  assistantWithCalls(Array.from({ length: count }, () => ({ name })));

async function limitError(promise: Promise<unknown>): Promise<ToolCallLimitExceededError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolCallLimitExceededError);
  return error as ToolCallLimitExceededError;
}

describe('per-turn call limits', () => {
  it('reproduces Spring AI 2.0.1: 41 calls to one tool execute 40 times and the 41st is refused', async () => {
    const { tools, counters } = createReferenceTools();
    const error = await limitError(
      createToolRuntime({ tools }).executeToolCalls({ messages: [user], response: calls('counted', 41) }),
    );
    expect(counters.counted).toBe(40);
    expect(error.message).toBe(
      "Tool call limit (40) exceeded for tool 'counted'. No further calls to this tool are allowed in this turn.",
    );
    expect(error).toMatchObject({ scope: 'per-tool', limit: 40, toolName: 'counted' });
    const toolMessages = error.partialResult.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(41);
    expect(toolMessages.at(-1)?.content).toBe(
      "TOOL_CALL_LIMIT: Tool call limit (40) exceeded for tool 'counted'. No further calls to this tool are allowed in this turn.",
    );
    expect(toolMessages.at(-2)?.content).toBe('40');
  });

  it('reproduces Spring AI 2.0.1: with a total limit of 2, three calls execute twice', async () => {
    const { tools, counters } = createReferenceTools();
    const error = await limitError(
      createToolRuntime({ tools, limits: { total: 2 } }).executeToolCalls({
        messages: [user],
        response: calls('counted', 3),
      }),
    );
    expect(counters.counted).toBe(2);
    expect(error.message).toBe('Total tool call limit (2) exceeded for this turn');
    expect(error).toMatchObject({ scope: 'total', limit: 2, toolName: 'counted' });
    expect(error.partialResult.results).toHaveLength(3);
    expect(error.partialResult.messages.at(-1)?.content).toBe(
      'TOOL_CALL_LIMIT: Total tool call limit (2) exceeded for this turn. No further tool calls are allowed in this turn.',
    );
  });

  it('tells the model that no further calls are allowed, for the per-tool and for the total limit', async () => {
    const { tools } = createReferenceTools();
    const feedback = (limits: CallLimits) =>
      createToolRuntime({ tools, limits, onLimitExceeded: 'feedback' })
        .executeToolCalls({
          messages: [user],
          response: assistantWithCalls([{ name: 'counted' }, { name: 'echo', arguments: { text: 'x' } }]),
        })
        .then((result) => result.messages.at(-1)?.content);
    expect(await feedback({ byTool: { echo: 0 } })).toBe(
      "TOOL_CALL_LIMIT: Tool call limit (0) exceeded for tool 'echo'. No further calls to this tool are allowed in this turn.",
    );
    expect(await feedback({ total: 1 })).toBe(
      'TOOL_CALL_LIMIT: Total tool call limit (1) exceeded for this turn. No further tool calls are allowed in this turn.',
    );
  });

  it('feeds the limit message to the model instead of throwing when asked', async () => {
    const { tools, counters } = createReferenceTools();
    const result = await createToolRuntime({
      tools,
      limits: { perTool: 1 },
      onLimitExceeded: 'feedback',
    }).executeToolCalls({ messages: [user], response: calls('counted', 3) });
    expect(counters.counted).toBe(1);
    expect(result.messages.slice(-2).map((m) => m.role === 'tool' && m.errorCode)).toEqual([
      'TOOL_CALL_LIMIT',
      'TOOL_CALL_LIMIT',
    ]);
  });

  it('counts across responses within a turn, and starts over at the next user message', async () => {
    const { tools, counters } = createReferenceTools();
    const limits = { perTool: 3 };
    const first = await createToolRuntime({ tools, limits }).executeToolCalls({
      messages: [user],
      response: calls('counted', 2),
    });
    await limitError(
      createToolRuntime({ tools, limits }).executeToolCalls({
        messages: first.messages,
        response: calls('counted', 2),
      }),
    );
    expect(counters.counted).toBe(3);
    const nextTurn = await createToolRuntime({ tools, limits }).executeToolCalls({
      messages: [...first.messages, { role: 'assistant', content: 'done' }, user],
      response: calls('counted', 3),
    });
    expect(nextTurn.results.every((r) => r.type === 'success')).toBe(true);
    expect(counters.counted).toBe(6);
  });

  it('settles limits per tool, per effect and globally, and excluded tools are not limited or counted', async () => {
    const make = (name: string, effect: 'read' | 'write', maxCallsPerTurn?: number) =>
      defineTool({
        name,
        description: 'd',
        effect,
        execute: () => name,
        ...(maxCallsPerTurn ? { maxCallsPerTurn } : {}),
      });
    const tools = [make('r', 'read'), make('w', 'write'), make('own', 'read', 1), make('free', 'read')];
    const response = assistantWithCalls(
      ['r', 'r', 'r', 'w', 'w', 'own', 'own', 'free', 'free', 'free', 'free'].map((name) => ({ name })),
    );
    const result = await createToolRuntime({
      tools,
      limits: { perTool: 2, byEffect: { write: 1 }, byTool: { own: 5 }, exclude: ['free'], total: 6 },
      onLimitExceeded: 'feedback',
    }).executeToolCalls({ messages: [user], response });
    expect(result.results.map((r) => (r.type === 'success' ? 'ok' : r.code))).toEqual([
      'ok',
      'ok',
      'TOOL_CALL_LIMIT',
      'ok',
      'TOOL_CALL_LIMIT',
      'ok',
      'TOOL_CALL_LIMIT',
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
  });

  it('keeps counts right when one runtime serves many turns at once', async () => {
    const { tools } = createReferenceTools();
    const runtime = createToolRuntime({ tools, limits: { perTool: 5 } });
    const turns = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        runtime.executeToolCalls({
          messages: [{ role: 'user', content: `turn ${i}` }],
          response: calls('counted', 5),
        }),
      ),
    );
    for (const turn of turns) expect(turn.results.every((r) => r.type === 'success')).toBe(true);
    const sixth = runtime.executeToolCalls({
      messages: turns[0]?.messages ?? [],
      response: calls('counted', 1),
    });
    await limitError(sixth);
  });

  it('rejects bad limit configuration before any tool runs', async () => {
    const { tools, counters } = createReferenceTools();
    for (const limits of [
      { perTool: -1 },
      { total: 1.5 },
      { byTool: { counted: Number.NaN } },
      { perTool: '5' },
      { total: 5n },
      { byEffect: { write: Number.POSITIVE_INFINITY } },
      { byTool: { counted: { valueOf: () => 1 } } },
      null,
    ]) {
      expect(() => createToolRuntime({ tools, limits: limits as never })).toThrow(InvalidOptionsError);
    }
    expect(() => createToolRuntime({ tools, limits: { perTool: 2 ** 53 } })).toThrow(
      'Invalid option limits.perTool: must be an integer >= 0, got 9007199254740992',
    );
    expect(() => createToolRuntime({ tools, concurrency: 0 })).toThrow(
      'Invalid option concurrency: must be an integer >= 1, got 0',
    );
    expect(counters.counted).toBe(0);
  });
});
