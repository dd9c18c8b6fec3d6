import { describe, expect, it } from 'vitest';
import { createAgentModel } from '../../test/scenarios/create-agent-model.js';
import { contractMismatchScenario } from '../../test/scenarios/repeat-scenarios.js';
import { twelveStepTaskScenario } from '../../test/scenarios/workflow-scenarios.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { LoopStoppedError } from '../core/errors/loop-stopped-error.js';
import { ToolwardenError } from '../core/errors/toolwarden-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import { historyProblems } from '../testing/history-problems.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';
import type { StopInfo } from './stop-info.js';

// Gate 1 (the ceiling) and what a stop ends with: the last answer, the fallback, the handoff, or a throw.
// ScriptedModel reports 10 input + 5 output tokens per call.

function stopped(outcome: LoopOutcome) {
  if (outcome.type !== 'stopped') throw new Error(`expected a stopped outcome, got ${outcome.type}`);
  return outcome;
}

describe('the ceiling', () => {
  it('a token budget stops before the call that would start over it: BUDGET_EXHAUSTED (tokens)', async () => {
    const { model, tools, messages } = twelveStepTaskScenario.build();
    const outcome = stopped(await runToolLoop({ model, tools, messages, tokenBudget: 30 }));
    expect(outcome.reason).toBe('BUDGET_EXHAUSTED');
    expect(outcome.roundTrips).toBe(2);
    expect(outcome.evidence).toEqual({ kind: 'ceiling', limit: 'tokens', max: 30, used: 30 });
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('a cost budget stops once the cost function reaches it: BUDGET_EXHAUSTED (cost)', async () => {
    const { model, tools, messages } = twelveStepTaskScenario.build();
    const outcome = stopped(
      await runToolLoop({
        model,
        tools,
        messages,
        cost: (usage) => usage.totalTokens * 0.001,
        costBudget: 0.05,
      }),
    );
    expect(outcome.reason).toBe('BUDGET_EXHAUSTED');
    expect(outcome.roundTrips).toBe(4);
    expect(outcome.evidence).toMatchObject({ kind: 'ceiling', limit: 'cost', max: 0.05 });
  });

  it('a cost budget without a cost function is rejected up front', async () => {
    const { model, tools, messages } = twelveStepTaskScenario.build();
    await expect(runToolLoop({ model, tools, messages, costBudget: 1 })).rejects.toBeInstanceOf(
      InvalidOptionsError,
    );
  });

  it('an error result the model keeps provoking with the same arguments is a loop', async () => {
    const strict = defineTool({
      name: 'setLimit',
      description: 'Sets a limit.',
      input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      effect: 'read',
      execute: () => 'ok',
    });
    const model = createAgentModel({
      decide: () => ({ calls: [{ name: 'setLimit', arguments: { n: 'ten' } }] }),
      lastWords: 'I could not set the limit.',
    });
    const outcome = stopped(
      await runToolLoop({ model, tools: [strict], messages: [{ role: 'user', content: 'limit 10' }] }),
    );
    expect(outcome.reason).toBe('LOOP_DETECTED');
    expect(outcome.roundTrips).toBe(3);
    expect(outcome.toolResults.map((r) => (r.type === 'error' ? r.code : 'ok'))).toEqual([
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
    ]);
  });

  it('a tool that stays unavailable is neither warned about nor nudged, and is stopped after 5 rounds', async () => {
    const down = defineTool({
      name: 'getRate',
      description: 'A rate.',
      effect: 'read',
      retries: 0,
      execute: () => {
        throw new TransientToolError({ message: 'service returned 503' });
      },
    });
    const model = createAgentModel({
      decide: () => ({ calls: [{ name: 'getRate', arguments: {} }] }),
      lastWords: 'The service is down.',
    });
    const warnings: unknown[] = [];
    const outcome = stopped(
      await runToolLoop({
        model,
        tools: [down],
        messages: [{ role: 'user', content: 'rate?' }],
        onEvent: (event) => {
          if (event.type === 'guard-warn') warnings.push(event);
        },
      }),
    );
    expect(outcome.reason).toBe('LOOP_DETECTED');
    expect(outcome.evidence).toMatchObject({ kind: 'loop', detector: 'still-unavailable', occurrences: 5 });
    expect(outcome.toolCalls).toBe(5);
    expect(warnings).toEqual([]);
    expect(outcome.messages.some((m) => m.content.includes('NOTE from the runtime'))).toBe(false);
  });
});

describe('what a stop ends with', () => {
  it('finalAnswer: one last model call with tools disabled, whose text ends the history', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const outcome = stopped(await runToolLoop({ model, tools, messages, finalAnswer: true }));
    expect(outcome.reason).toBe('LOOP_DETECTED');
    expect(model.requests.at(-1)?.tools.length).toBe(0);
    expect(model.callCount).toBe(outcome.roundTrips); // the last answer is a model call too, and is counted
    expect(outcome.text).toBe('I could not get a SUCCESS or FAILED verdict for order A-1042.');
    expect(outcome.messages.at(-1)).toEqual({ role: 'assistant', content: outcome.text });
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('finalAnswer: the last model call is counted in the usage totals', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const outcome = await runToolLoop({ model, tools, messages, finalAnswer: true });
    expect(outcome.usage.totalTokens).toBe(15 * model.callCount);
  });

  it('fallback: the default text, a fixed string, or a function of the stop', async () => {
    const run = async (fallback?: string | ((stop: StopInfo) => string)) => {
      const { model, tools, messages } = contractMismatchScenario.build();
      return stopped(
        await runToolLoop({ model, tools, messages, ...(fallback === undefined ? {} : { fallback }) }),
      );
    };
    expect((await run()).text).toBe(
      'I could not finish this request: it kept repeating the same steps without getting any further. Nothing was changed; you can rephrase the request or ask again.',
    );
    expect((await run('Sorry, try again.')).text).toBe('Sorry, try again.');
    const seen: StopInfo[] = [];
    const byFunction = await run((stop) => {
      seen.push(stop);
      return `stopped: ${stop.reason} (${stop.evidence.kind === 'loop' ? stop.evidence.detector : ''})`;
    });
    expect(byFunction.text).toBe('stopped: LOOP_DETECTED (exact-repeat)');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.messages).toBe(byFunction.messages);
  });

  it('handoff: called once with the stop; its string becomes the text, undefined falls back', async () => {
    const handed: StopInfo[] = [];
    const { model, tools, messages } = contractMismatchScenario.build();
    const outcome = stopped(
      await runToolLoop({
        model,
        tools,
        messages,
        handoff: async (stop) => {
          handed.push(stop);
          return 'A person will follow up on order A-1042.';
        },
      }),
    );
    expect(handed.map((stop) => stop.reason)).toEqual(['LOOP_DETECTED']);
    expect(outcome.text).toBe('A person will follow up on order A-1042.');
    const quiet = contractMismatchScenario.build();
    const silent = stopped(
      await runToolLoop({ ...quiet, handoff: () => undefined, fallback: 'Queued for a person.' }),
    );
    expect(silent.text).toBe('Queued for a person.');
  });

  it('handoff: still called when finalAnswer produced the text', async () => {
    let calls = 0;
    const { model, tools, messages } = contractMismatchScenario.build();
    await runToolLoop({
      model,
      tools,
      messages,
      finalAnswer: true,
      handoff: () => {
        calls++;
        return undefined;
      },
    });
    expect(calls).toBe(1);
  });

  it('throwOnStop: a stop throws LoopStoppedError carrying the outcome; a completion does not throw', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const error = await runToolLoop({ model, tools, messages, throwOnStop: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoopStoppedError);
    expect(ToolwardenError.hasCode(error, 'LOOP_DETECTED')).toBe(true);
    const outcome = (error as LoopStoppedError).outcome;
    expect(outcome.reason).toBe('LOOP_DETECTED');
    expect(historyProblems(outcome.messages)).toEqual([]);
    const task = twelveStepTaskScenario.build();
    expect((await runToolLoop({ ...task, throwOnStop: true })).type).toBe('completed');
  });
});
