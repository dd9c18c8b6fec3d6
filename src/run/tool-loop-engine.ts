import { resolvePolicy } from '../chain/execution-policy.js';
import { type CallsOutcome, runToolCalls } from '../chain/run-tool-calls.js';
import type { ToolCallResult } from '../chain/tool-execution-result.js';
import { countTurnCalls } from '../chain/turn-counts.js';
import type { Message, ToolMessage } from '../messages/message.js';
import type { ModelResponse, ToolSpec } from '../model/model.js';
import { toToolRegistry } from '../tools/tool-registry.js';
import { createBudgetSignal, raceAbort } from './budget-signal.js';
import { checkCeiling } from './check-ceiling.js';
import { guardRound } from '../guard/guard-round.js';
import { EMPTY_GUARD_STATE, type GuardState } from '../guard/guard-types.js';
import type { LoopEvent } from './loop-event.js';
import { createLoopGuard, type LoopGuard, snapshotGuard } from '../guard/loop-guard.js';
import { resolveLoopOptions, type ToolLoopOptions } from './loop-options.js';
import type { LoopOutcome, LoopStep, LoopUsage, StopEvidence, StopReason } from './loop-outcome.js';
import { normalizeResponse } from './normalize-response.js';
import { restoreGuardState } from '../guard/restore-guard-state.js';
import { stopText, wastedRoundTrips } from './stop-text.js';

const defaultNow = (): number => performance.now();

/** The request's running totals: owned by one run of the loop, never shared. */
interface LoopState {
  readonly history: Message[];
  readonly steps: LoopStep[];
  readonly toolResults: ToolCallResult[];
  usage: LoopUsage;
  roundTrips: number;
}

/**
 * The tool loop, written once: call the model; if it asked for tools, run the chain, check the guards, go
 * round again; if not, finish. Every step is reported to `emit` as it happens (the chain's tool events
 * included); `streamToolLoop` turns that into an async stream and `runToolLoop` hands it to a callback.
 * Without `emit` (nobody listens) no event is built. The result is the outcome, a value: `completed` or
 * `stopped` with a reason and evidence.
 */
export async function runLoopEngine(
  options: ToolLoopOptions,
  emit: ((event: LoopEvent) => void) | undefined,
): Promise<LoopOutcome> {
  const config = resolveLoopOptions(options);
  const userListener = options.onEvent;
  const policy = resolvePolicy(
    emit === undefined
      ? options
      : {
          ...options,
          onEvent: (event) => {
            emit(event);
            userListener?.(event);
          },
        },
  );
  const registry = toToolRegistry(options.tools);
  const specs: ToolSpec[] = registry.list().map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputJsonSchema,
  }));
  const now = options.now ?? defaultNow;
  const started = now();
  const timed = Number.isFinite(config.timeBudgetMs);
  const budget = createBudgetSignal(options.signal, config.timeBudgetMs);
  const state: LoopState = {
    history: [...options.messages],
    steps: [],
    toolResults: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    roundTrips: 0,
  };
  // The session's guard state as loaded: saved back as it is when the guard is off.
  let restored: GuardState = EMPTY_GUARD_STATE;
  let guard: LoopGuard | undefined;
  const counts = countTurnCalls(state.history, policy.limits.isExcluded);
  const { sessionId, store } = options;

  const stopped = async (reason: StopReason, evidence: StopEvidence): Promise<LoopOutcome> => {
    const text = await stopText(
      { reason, evidence, messages: state.history },
      options,
      config,
      budget.signal,
    );
    if (text.finalMessage !== undefined) state.history.push(text.finalMessage);
    if (text.askedModel) state.roundTrips++;
    if (text.usage !== undefined) addUsage(state, text.usage);
    return {
      type: 'stopped',
      reason,
      evidence,
      text: text.text,
      wastedRoundTrips: wastedRoundTrips(evidence),
      ...totals(state),
    };
  };

  let outcome: LoopOutcome;
  try {
    if (store !== undefined && sessionId !== undefined)
      restored = restoreGuardState(await store.load(sessionId));
    if (config.guard !== undefined) guard = createLoopGuard(config.guard, restored);
    outcome = await rounds();
  } finally {
    budget.dispose();
  }
  if (store !== undefined && sessionId !== undefined)
    await store.save(sessionId, guard === undefined ? restored : snapshotGuard(guard));
  emit?.({ type: 'loop-end', outcome });
  return outcome;

  async function rounds(): Promise<LoopOutcome> {
    for (;;) {
      const spend = {
        roundTrips: state.roundTrips,
        usage: state.usage,
        // Only the time budget reads the clock's answer: without one, the clock is not asked.
        elapsedMs: timed ? now() - started : 0,
        cost: options.cost?.(state.usage) ?? 0,
      };
      const ceiling = checkCeiling(spend, config);
      if (ceiling !== undefined) return await stopped(ceiling.reason, ceiling.evidence);
      if (budget.canAbort && budget.signal.aborted) return await stopped(...abortReason());

      const round = state.roundTrips + 1;
      emit?.({ type: 'step-start', round });
      let response: ModelResponse;
      try {
        // Inside the try, a model that throws synchronously is a rejection like any other.
        const generating = options.model.generate({
          messages: state.history,
          tools: specs,
          signal: budget.signal,
        });
        response = await (budget.canAbort
          ? raceAbort(Promise.resolve(generating), budget.signal)
          : generating);
      } catch (error) {
        state.roundTrips++;
        if (budget.canAbort && budget.signal.aborted) return await stopped(...abortReason());
        return await stopped('model-error', { kind: 'error', error });
      }
      state.roundTrips++;
      const normalized = normalizeResponse(response, round);
      addUsage(state, normalized.usage);
      if (!normalized.ok)
        return await stopped('model-error', { kind: 'error', error: new Error(normalized.problem) });
      const { message } = normalized;
      state.history.push(message);
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) {
        state.steps.push({ round, response: message, usage: normalized.usage, toolResults: [] });
        emit?.({ type: 'step-end', round, response: message, usage: normalized.usage, toolResults: [] });
        return { type: 'completed', text: message.content, ...totals(state) };
      }

      let calls$: CallsOutcome | undefined;
      let failure: unknown;
      const request = {
        assistant: message,
        // A signal that can never abort is no signal to the chain (which then spares each tool that
        // reads its own an AbortSignal.any over it).
        signal: budget.canAbort ? budget.signal : undefined,
        data: options.data,
        turnId: options.turnId,
        sessionId,
        now,
      };
      try {
        const running = runToolCalls(request, policy, registry, counts);
        calls$ = running instanceof Promise ? await running : running;
      } catch (error) {
        failure = error;
      }
      if (calls$ === undefined) {
        for (const call of calls) {
          state.history.push({
            role: 'tool',
            toolCallId: call.id,
            name: call.name,
            content: 'INTERNAL_ERROR: The call was not executed.',
            isError: true,
            errorCode: 'INTERNAL_ERROR',
          });
        }
        return await stopped('tool-fatal', { kind: 'error', error: failure });
      }

      let toolMessages = calls$.toolMessages;
      let loopStop: StopEvidence | undefined;
      const guarded =
        guard === undefined
          ? undefined
          : guardRound(
              guard,
              calls,
              calls$.results,
              toolMessages,
              config.guard?.nudge === true,
              calls$.validatedArguments,
            );
      if (guarded !== undefined) {
        toolMessages = guarded.toolMessages;
        if (emit !== undefined)
          for (const warning of guarded.warnings) emit({ type: 'guard-warning', round, ...warning });
        if (guarded.stop !== undefined) loopStop = { kind: 'loop', ...guarded.stop };
      }
      // Indexed: for-of allocates per step wherever this code runs unoptimized (after a GC dropped it).
      for (let i = 0; i < toolMessages.length; i++) state.history.push(toolMessages[i] as ToolMessage);
      for (let i = 0; i < calls$.results.length; i++)
        state.toolResults.push(calls$.results[i] as ToolCallResult);
      state.steps.push({ round, response: message, usage: normalized.usage, toolResults: calls$.results });
      emit?.({
        type: 'step-end',
        round,
        response: message,
        usage: normalized.usage,
        toolResults: calls$.results,
      });

      if (calls$.fatal !== undefined)
        return await stopped('tool-fatal', { kind: 'error', error: calls$.fatal.error });
      if (calls$.limited !== undefined && policy.onLimitExceeded === 'throw') {
        return await stopped('tool-call-limit', { kind: 'error', error: new Error(calls$.limited.message) });
      }
      if (loopStop !== undefined) return await stopped('loop-detected', loopStop);
      if (calls$.returnDirect) {
        return { type: 'completed', text: toolMessages.map((m) => m.content).join('\n'), ...totals(state) };
      }
    }
  }

  function abortReason(): [StopReason, StopEvidence] {
    if (budget.timedOut()) {
      return [
        'budget-exhausted',
        { kind: 'ceiling', limit: 'time', max: config.timeBudgetMs, used: Math.round(now() - started) },
      ];
    }
    return ['aborted', { kind: 'error', error: options.signal?.reason }];
  }
}

function addUsage(state: LoopState, usage: { inputTokens: number; outputTokens: number }): void {
  const inputTokens = state.usage.inputTokens + usage.inputTokens;
  const outputTokens = state.usage.outputTokens + usage.outputTokens;
  state.usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

function totals(state: LoopState) {
  return {
    messages: state.history,
    steps: state.steps,
    usage: state.usage,
    roundTrips: state.roundTrips,
    toolCalls: state.toolResults.length,
    toolResults: state.toolResults,
  };
}
