import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MAX_CALLS_PER_TOOL, DEFAULT_MAX_RESULT_CHARS } from '../core/defaults.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { AssistantMessage, Message } from '../core/message.js';
import type { ModelRequest } from '../core/model.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { historyProblems } from '../testing/history-problems.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';

// The loop's hostile-input contract (issue 3): every malformed model answer, a model that throws or hangs,
// and a tool result that is enormous or not serializable ends in a defined outcome, and the history stays
// well-formed (every assistant tool call has exactly one tool response right after it).

const USER: readonly Message[] = [{ role: 'user', content: 'Go.' }];
const DONE: AssistantMessage = { role: 'assistant', content: 'Done.' };

function echoTool() {
  let executions = 0;
  const tool = defineTool({
    name: 'echo',
    description: 'Echoes its arguments.',
    effect: 'read',
    execute: (args: unknown) => {
      executions++;
      return args;
    },
  });
  return { tool, executions: () => executions };
}

function valueTool(value: () => unknown) {
  return defineTool({ name: 'produce', description: 'Produces a value.', effect: 'read', execute: value });
}

function stopped(outcome: LoopOutcome) {
  if (outcome.type !== 'stopped') throw new Error(`expected a stopped outcome, got ${outcome.type}`);
  return outcome;
}

/** A model that never answers: its promise never settles, whatever the signal does. */
function hangingModel(): ScriptedModel {
  return new ScriptedModel({ script: () => new Promise<AssistantMessage>(() => {}) });
}

describe('hostile model responses', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('no content and no calls: MODEL_ERROR, and the empty answer is not written to the history', async () => {
    const model = new ScriptedModel({ script: [{ role: 'assistant', content: '   ' }] });
    const outcome = stopped(await runToolLoop({ model, messages: USER, tools: [echoTool().tool] }));
    expect(outcome.reason).toBe('MODEL_ERROR');
    expect(outcome.roundTrips).toBe(1);
    expect(outcome.messages).toEqual(USER);
  });

  it('a response with no message at all: MODEL_ERROR', async () => {
    const model = new ScriptedModel({ script: [{} as never] });
    const outcome = stopped(await runToolLoop({ model, messages: USER, tools: [echoTool().tool] }));
    expect(outcome.reason).toBe('MODEL_ERROR');
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('empty and duplicate call ids: each call runs once and gets a unique id and exactly one response', async () => {
    const echo = echoTool();
    const calls = assistantWithCalls([
      { name: 'echo', arguments: { n: 1 }, id: '' },
      { name: 'echo', arguments: { n: 2 }, id: '' },
      { name: 'echo', arguments: { n: 3 }, id: 'dup' },
      { name: 'echo', arguments: { n: 4 }, id: 'dup' },
    ]);
    const model = new ScriptedModel({ script: [calls, DONE] });
    const outcome = await runToolLoop({ model, messages: USER, tools: [echo.tool] });
    expect(outcome.type).toBe('completed');
    expect(echo.executions()).toBe(4);
    expect(historyProblems(outcome.messages)).toEqual([]);
    const ids = (outcome.messages[1] as AssistantMessage).toolCalls?.map((call) => call.id) ?? [];
    expect(new Set(ids).size).toBe(4);
    expect(ids).not.toContain('');
    const answered = outcome.messages.slice(2, 6).map((m) => (m.role === 'tool' ? m.content : ''));
    expect(answered).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
  });

  it('a replacement id never collides with an id the model sent', async () => {
    const calls = assistantWithCalls([
      { name: 'echo', arguments: { n: 1 }, id: 'tw_1_2' },
      { name: 'echo', arguments: { n: 2 }, id: '' },
    ]);
    const model = new ScriptedModel({ script: [calls, DONE] });
    const outcome = await runToolLoop({ model, messages: USER, tools: [echoTool().tool] });
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('10,000 calls in one response: TOOL_CALL_LIMIT, one response per call, at most the per-tool limit executed', async () => {
    const echo = echoTool();
    const many = assistantWithCalls(
      Array.from({ length: 10_000 }, (_, i) => ({ name: 'echo', arguments: { i }, id: `c${i}` })),
    );
    const model = new ScriptedModel({ script: [many, DONE] });
    const outcome = stopped(await runToolLoop({ model, messages: USER, tools: [echo.tool] }));
    expect(outcome.reason).toBe('TOOL_CALL_LIMIT');
    expect(outcome.roundTrips).toBe(1);
    expect(echo.executions()).toBe(DEFAULT_MAX_CALLS_PER_TOOL);
    expect(outcome.messages.filter((m) => m.role === 'tool')).toHaveLength(10_000);
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('a model that throws: MODEL_ERROR with the thrown error as evidence', async () => {
    const failure = new Error('provider 500');
    const model = new ScriptedModel({
      script: () => {
        throw failure;
      },
    });
    const outcome = stopped(await runToolLoop({ model, messages: USER, tools: [echoTool().tool] }));
    expect(outcome.reason).toBe('MODEL_ERROR');
    expect(outcome.evidence).toEqual({
      kind: 'error',
      error: failure,
      model: { attempts: 1, retryable: false, gaveUp: 'not-retryable' },
    });
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it("a model that hangs is ended by the caller's abort signal: aborted", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const reason = new Error('the user closed the tab');
    setTimeout(() => controller.abort(reason), 5_000);
    const model = hangingModel();
    const run = runToolLoop({ model, messages: USER, tools: [echoTool().tool], signal: controller.signal });
    await vi.advanceTimersByTimeAsync(5_000);
    const outcome = stopped(await run);
    expect(outcome.reason).toBe('ABORTED');
    expect(outcome.evidence).toEqual({ kind: 'error', error: reason });
    expect((model.requests[0] as ModelRequest).signal.aborted).toBe(true);
  });

  it('a model that hangs is ended by the wall-clock budget: BUDGET_EXHAUSTED', async () => {
    vi.useFakeTimers();
    const model = hangingModel();
    const run = runToolLoop({
      model,
      messages: USER,
      tools: [echoTool().tool],
      timeBudgetMs: 30_000,
      now: () => Date.now(),
    });
    await vi.advanceTimersByTimeAsync(30_000);
    const outcome = stopped(await run);
    expect(outcome.reason).toBe('BUDGET_EXHAUSTED');
    expect(outcome.evidence).toMatchObject({ kind: 'ceiling', limit: 'time', max: 30_000, used: 30_000 });
    expect((model.requests[0] as ModelRequest).signal.aborted).toBe(true);
  });
});

describe('hostile tool results', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a tool that hangs (ignoring its signal) is ended by the wall-clock budget; the call gets its response', async () => {
    vi.useFakeTimers();
    const tool = defineTool({
      name: 'hang',
      description: 'Never returns.',
      effect: 'read',
      execute: () => new Promise<never>(() => {}),
    });
    const model = new ScriptedModel({ script: [assistantWithCalls([{ name: 'hang' }]), DONE] });
    const run = runToolLoop({
      model,
      messages: USER,
      tools: [tool],
      timeBudgetMs: 10_000,
      now: () => Date.now(),
    });
    await vi.advanceTimersByTimeAsync(10_000);
    const outcome = stopped(await run);
    expect(outcome.reason).toBe('BUDGET_EXHAUSTED');
    expect(outcome.roundTrips).toBe(1);
    expect(outcome.messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('an enormous result is truncated with a marker and the loop goes on', async () => {
    const tool = valueTool(() => 'x'.repeat(5_000_000));
    const model = new ScriptedModel({ script: [assistantWithCalls([{ name: 'produce' }]), DONE] });
    const outcome = await runToolLoop({ model, messages: USER, tools: [tool] });
    expect(outcome.type).toBe('completed');
    const result = outcome.toolResults[0];
    expect(result?.type === 'success' && result.truncated).toBe(true);
    const toolMessage = outcome.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content.length).toBeLessThan(DEFAULT_MAX_RESULT_CHARS + 1_000);
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('a result that cannot be serialized (circular) stops with TOOL_FATAL; the history stays well-formed', async () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const tool = valueTool(() => circular);
    const model = new ScriptedModel({ script: [assistantWithCalls([{ name: 'produce' }]), DONE] });
    const outcome = stopped(await runToolLoop({ model, messages: USER, tools: [tool] }));
    expect(outcome.reason).toBe('TOOL_FATAL');
    expect(outcome.roundTrips).toBe(1);
    expect(outcome.messages.at(-1)).toMatchObject({
      role: 'tool',
      isError: true,
      errorCode: 'INTERNAL_ERROR',
    });
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('a model that reuses call ids across rounds gets fresh ones: every id in the history is unique', async () => {
    const again = assistantWithCalls([{ name: 'echo', arguments: { n: 1 }, id: 'call_1' }]);
    const model = new ScriptedModel({
      script: [again, assistantWithCalls([{ name: 'echo', arguments: { n: 2 }, id: 'call_1' }]), DONE],
    });
    const outcome = await runToolLoop({ model, messages: USER, tools: [echoTool().tool] });
    expect(outcome.type).toBe('completed');
    const ids = outcome.messages.flatMap((m) =>
      m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [],
    );
    expect(ids[0]).toBe('call_1');
    expect(ids[1]).toMatch(/^tw_/);
    expect(historyProblems(outcome.messages)).toEqual([]);
  });
});
