import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { type AnyTool, defineTool, type ToolDefinition } from '../tools/define-tool.js';
import type { ToolEffect } from '../tools/tool-effect.js';
import { explainStop } from './explain-stop.js';
import { runToolLoop } from './run-tool-loop.js';
import type { StopInfo } from './stop-info.js';

// What a stop tells the user and the developer is true to what happened: only writes that took effect are
// "already done", counted once per execution; an outcome nobody knows is said to be unknown; the advice
// fits the evidence.

const USER: Message[] = [{ role: 'user', content: 'Go.' }];

function tool(
  name: string,
  effect: ToolEffect,
  execute: (args: unknown) => unknown,
  extra: Partial<ToolDefinition<unknown, unknown>> = {},
): AnyTool {
  return defineTool<unknown, unknown>({ name, description: `${name}.`, effect, execute, ...extra });
}

/** The same call, `times` rounds in a row (the guard stops it at the third). */
function repeated(name: string, args: unknown, times: number) {
  return Array.from({ length: times }, () => assistantWithCalls([{ name, arguments: args }]));
}

async function stop(tools: AnyTool[], script: ReturnType<typeof repeated>, extra = {}) {
  let info: StopInfo | undefined;
  const outcome = await runToolLoop({
    model: new ScriptedModel({ script }),
    tools,
    messages: USER,
    handoff: (given) => {
      info = given;
      return undefined;
    },
    ...extra,
  });
  if (outcome.type !== 'stopped') throw new Error(`expected a stop, got ${outcome.type}`);
  return { outcome, info: info as StopInfo };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the stop text lists only what took effect', () => {
  it('createBooking refused 3 times: nothing is listed as done', async () => {
    let runs = 0;
    const createBooking = tool('createBooking', 'write', () => {
      runs++;
      throw new ToolInputError({ message: 'No seats left on that flight.' });
    });
    const { outcome, info } = await stop([createBooking], repeated('createBooking', { flight: 'LH 400' }, 5));
    expect(outcome.reason).toBe('LOOP_DETECTED');
    // A refused write keeps no record: each identical call runs again, and is refused again.
    expect(runs).toBe(3);
    expect(info.writes).toEqual([]);
    expect(info.outcomeUnknown).toEqual([]);
    expect(outcome.text).not.toContain('createBooking');
    expect(outcome.text).toContain('Nothing was changed');
  });

  it('deployService ran once, then replayed twice: listed once', async () => {
    let runs = 0;
    const deployService = tool('deployService', 'write', () => ({ deployed: ++runs }));
    const { outcome, info } = await stop(
      [deployService],
      repeated('deployService', { service: 'api', version: '2.1' }, 5),
    );
    expect(outcome.reason).toBe('LOOP_DETECTED');
    expect(runs).toBe(1);
    expect(info.writes).toEqual([{ tool: 'deployService', times: 1, effect: 'write' }]);
    expect(outcome.text).toContain('Already done before it stopped: deployService (once).');
    expect(outcome.text).not.toContain('3 times');
  });

  it('an idempotent write run three times with the same arguments changed something once', async () => {
    const setStatus = tool('setStatus', 'idempotent-write', () => ({ ok: true }));
    const { info } = await stop([setStatus], repeated('setStatus', { id: 7, status: 'closed' }, 5));
    expect(info.writes).toEqual([{ tool: 'setStatus', times: 1, effect: 'idempotent-write' }]);
  });

  it('a timed-out write is listed as unknown, not as done and not as nothing', async () => {
    vi.useFakeTimers();
    const chargeCard = tool(
      'chargeCard',
      'write',
      () => new Promise(() => {}), // the payment provider never answers
      { timeoutMs: 1_000 },
    );
    const pending = stop([chargeCard], repeated('chargeCard', { amount: 40 }, 1), { maxRoundTrips: 1 });
    await vi.advanceTimersByTimeAsync(1_000);
    const { outcome, info } = await pending;
    expect(outcome.reason).toBe('MAX_ROUND_TRIPS');
    expect(info.writes).toEqual([]);
    expect(info.outcomeUnknown).toEqual(['chargeCard']);
    expect(outcome.text).toContain('May or may not have happened (check first): chargeCard.');
    expect(outcome.text).not.toContain('Already done');
    expect(outcome.text).not.toContain('Nothing was changed');
  });

  it('an unknown-effect tool that succeeded is listed as ran, without claiming a change', async () => {
    const runScript = tool('runScript', 'unknown', () => ({ exitCode: 0 }));
    const { outcome, info } = await stop([runScript], repeated('runScript', { name: 'cleanup' }, 5));
    expect(info.writes).toEqual([{ tool: 'runScript', times: 3, effect: 'unknown' }]);
    expect(outcome.text).toContain('Ran, effect unknown: runScript (3 times).');
    expect(outcome.text).not.toContain('Already done');
  });

  it('names no developer setting in the text meant for the user', async () => {
    const search = tool('search', 'read', (args) => args);
    const { outcome } = await stop([search], repeated('search', { q: 'a' }, 1), { maxRoundTrips: 1 });
    expect(outcome.reason).toBe('MAX_ROUND_TRIPS');
    expect(outcome.text).not.toMatch(/maxRoundTrips|setting|limits\./);
  });
});

describe('explainStop gives advice that fits the evidence', () => {
  it('for a write that kept failing: the error it reports, not read hints', async () => {
    const createBooking = tool('createBooking', 'write', () => {
      throw new ToolInputError({ message: 'No seats left on that flight.' });
    });
    const { outcome } = await stop([createBooking], repeated('createBooking', { flight: 'LH 400' }, 5));
    const text = explainStop(outcome as LoopOutcome);
    expect(text).toContain('kept failing with TOOL_ERROR');
    expect(text).toContain("make the tool's error tell the model what to do instead");
    expect(text).not.toMatch(/polled|ignoreFields|sharedResults/);
  });

  it('for a tool the caller may not use: the permission', async () => {
    const deleteInvoice = tool('deleteInvoice', 'write', () => 'deleted', {
      decide: () => ({ type: 'deny', reason: 'not an admin' }),
    });
    const { outcome } = await stop([deleteInvoice], repeated('deleteInvoice', { id: 'inv-1' }, 5));
    const text = explainStop(outcome as LoopOutcome);
    expect(text).toContain('not permitted');
    expect(text).not.toMatch(/polled|ignoreFields/);
  });

  it('for a read repeated with the same result: the read hints remain', async () => {
    const getStatus = tool('getStatus', 'read', () => ({ status: 'pending' }));
    const { outcome } = await stop([getStatus], repeated('getStatus', { job: 'j1' }, 5));
    const text = explainStop(outcome as LoopOutcome);
    expect(text).toContain('loop: { polled: true }');
    expect(text).toContain('loop: { ignoreFields }');
  });
});

describe('explanations of the loop guard v3 stops', () => {
  it('one refusal across tools names the error as what blocks the work, not a hint for reads', async () => {
    const refuse = () => {
      throw new ToolInputError({ message: 'orders older than 30 days cannot be compensated' });
    };
    const tools = ['refund', 'storeCredit', 'goodwill'].map((name) => tool(name, 'write', refuse));
    const script = Array.from({ length: 8 }, (_, i) =>
      assistantWithCalls([
        {
          name: ['refund', 'storeCredit', 'goodwill'][i % 3] as string,
          arguments: { orderId: '55', eur: 40 - i },
        },
      ]),
    );
    const outcome = await runToolLoop({ model: new ScriptedModel({ script }), tools, messages: USER });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 5 });
    const text = explainStop(outcome);
    expect(text).toMatch(/failed with the same error: the model kept changing the input, or the tool/);
    expect(text).toMatch(/rounds 1, 2, 3, 4, 5/);
    expect(text).not.toMatch(/sharedResults|polled/);
  });

  it('a write flipping between states is explained as a cycle, with its rounds', async () => {
    const set = tool('setPriority', 'write', () => ({ ok: true }));
    const script = ['high', 'normal', 'high', 'normal', 'high'].map((priority, i) =>
      assistantWithCalls([
        { name: 'setPriority', arguments: { priority, reason: `reason number ${i} given` } },
      ]),
    );
    const outcome = await runToolLoop({ model: new ScriptedModel({ script }), tools: [set], messages: USER });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 4 });
    expect(explainStop(outcome)).toMatch(
      /the rounds 1, 2, 3, 4 repeat a sequence of 2 rounds \(setPriority\)/,
    );
  });
});
