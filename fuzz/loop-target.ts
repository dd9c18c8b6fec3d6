import fc from 'fast-check';
import { executionLie, historyProblem } from './check-history.js';
import { limitProblem } from './check-limits.js';
import {
  MAX_SAVED_STATE_CHARS,
  materializeStore,
  type StoreRecord,
  type StoreSpec,
  storeSpec,
} from './hostile-guard-state.js';
import { HostileModel, type ModelStepSpec, modelStepSpec } from './hostile-model.js';
import { type Behaviors, behaviorsSpec, FUZZ_TOOLS, type RunData, TOOL_NAMES } from './hostile-tools.js';
import { describeThrown, type Finding, type FuzzTarget, type Settled, signatureOf } from './oracle.js';
import { record } from './plain-record.js';
import { type AbortSpec, abortSpec, policySpec, startAbort } from './run-settings.js';
import {
  createFuzzRegistry,
  type FuzzPolicy,
  type FuzzRegistry,
  failedCallbackOf,
  isDocumentedRejection,
  type LoopView,
  partialHistoryOf,
  runLoop,
} from './targets.js';

export interface LoopCase {
  readonly steps: readonly ModelStepSpec[];
  readonly maxRoundTrips: number;
  readonly timeBudgetMs: number;
  readonly tokenBudget: number | undefined;
  readonly guard: 'default' | 'off' | 'tight';
  readonly finalAnswer: boolean;
  readonly throwOnStop: boolean;
  readonly store: StoreSpec;
  readonly policy: FuzzPolicy;
  readonly behaviors: Behaviors;
  readonly abort: AbortSpec;
}

export function loopCase(): fc.Arbitrary<LoopCase> {
  return record({
    steps: fc.array(modelStepSpec(), { minLength: 1, maxLength: 5 }),
    maxRoundTrips: fc.integer({ min: 1, max: 4 }),
    timeBudgetMs: fc.constantFrom(30, 60, 120),
    tokenBudget: fc.constantFrom(undefined, 100, 10_000),
    guard: fc.constantFrom('default' as const, 'off' as const, 'tight' as const),
    finalAnswer: fc.boolean(),
    throwOnStop: fc.oneof(
      { weight: 5, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    store: storeSpec(),
    policy: policySpec(),
    behaviors: behaviorsSpec(),
    abort: abortSpec(),
  });
}

const HISTORY: readonly unknown[] = Object.freeze([
  Object.freeze({ role: 'system', content: 'You are fuzzed.' }),
  Object.freeze({ role: 'user', content: 'go' }),
]);
const toolNames = new Set<string>(TOOL_NAMES);

function judgeMessages(
  messages: readonly unknown[],
  spec: LoopCase,
  executed: ReadonlySet<string>,
  where: string,
): Finding[] {
  for (let i = 0; i < HISTORY.length; i++) {
    if (messages[i] !== HISTORY[i])
      return [{ oracle: 'malformed-history', signature: `${where}: the caller's history was changed` }];
  }
  const problem =
    historyProblem(messages, HISTORY.length) ?? executionLie(messages, HISTORY.length, executed);
  if (problem !== undefined) return [{ oracle: 'malformed-history', signature: `${where}: ${problem}` }];
  const limits = { perTool: spec.policy.perToolLimit, total: spec.policy.totalLimit, tools: toolNames };
  const limit = limitProblem(messages, HISTORY.length, limits);
  return limit === undefined ? [] : [{ oracle: 'limits', signature: `${where}: ${limit}` }];
}

function judgeOutcome(view: LoopView, spec: LoopCase, modelCalls: number): Finding[] {
  const findings: Finding[] = [];
  const maxCalls = spec.maxRoundTrips + (spec.finalAnswer ? 1 : 0);
  if (modelCalls > maxCalls || view.roundTrips > maxCalls) {
    findings.push({
      oracle: 'limits',
      signature: 'more model calls than maxRoundTrips allows',
      detail: `${modelCalls} calls`,
    });
  }
  if (view.roundTrips !== modelCalls) {
    findings.push({ oracle: 'limits', signature: 'roundTrips is not the number of model calls' });
  }
  const { inputTokens, outputTokens, totalTokens } = view.usage;
  // Absurd counts saturate at MAX_SAFE_INTEGER (never Infinity).
  if (
    ![inputTokens, outputTokens, totalTokens].every((n) => Number.isSafeInteger(n) && n >= 0) ||
    totalTokens !== Math.min(Number.MAX_SAFE_INTEGER, inputTokens + outputTokens)
  ) {
    findings.push({
      oracle: 'limits',
      signature: 'usage totals are not finite sums',
      detail: `total ${totalTokens}`,
    });
  }
  return findings;
}

/** Rounds of this request that asked for tools: at most this many can be in a state started afresh. */
function roundsWithCalls(messages: readonly unknown[]): number {
  return messages.filter((m) => {
    const calls = (m as { role?: unknown; toolCalls?: unknown }).toolCalls;
    return (m as { role?: unknown }).role === 'assistant' && Array.isArray(calls) && calls.length > 0;
  }).length;
}

function judgeStore(
  spec: StoreSpec,
  record: StoreRecord,
  shouldSave: boolean,
  messages?: readonly unknown[],
): Finding[] {
  if (spec.kind !== 'working' && spec.kind !== 'session') return [];
  // The state is saved back only when it was loaded: a run aborted before its load answered (or a load
  // that never answers) leaves the store alone.
  const loadNeverAnswers =
    spec.kind === 'working' && spec.state.kind === 'value' && spec.state.value.kind === 'thenable-never';
  if (shouldSave && record.loads > 0 && !loadNeverAnswers && record.saves === 0) {
    return [{ oracle: 'saved-state', signature: 'the guard state was not saved back' }];
  }
  const rounds = record.lastSavedRounds;
  if (
    record.invalidated &&
    messages !== undefined &&
    rounds !== undefined &&
    rounds > roundsWithCalls(messages)
  ) {
    return [
      {
        oracle: 'saved-state',
        signature: 'a stored state that does not check out was partly kept (the README: it starts afresh)',
        detail: `${rounds} rounds saved`,
      },
    ];
  }
  const saved = record.lastSaved;
  if (typeof saved === 'string')
    return [{ oracle: 'saved-state', signature: `the saved guard state is ${saved}` }];
  if (typeof saved === 'number' && saved > MAX_SAVED_STATE_CHARS) {
    return [
      { oracle: 'saved-state', signature: 'the saved guard state is oversized', detail: `${saved} chars` },
    ];
  }
  return [];
}

function judge(
  settled: Exclude<Settled, { status: 'hung' }>,
  spec: LoopCase,
  context: {
    signal: AbortSignal | undefined;
    executed: ReadonlySet<string>;
    model: HostileModel;
    record: StoreRecord;
  },
): Finding[] {
  if (settled.status === 'resolved') {
    const view = settled.value as LoopView;
    return [
      ...judgeMessages(view.messages, spec, context.executed, 'outcome'),
      ...judgeOutcome(view, spec, context.model.calls),
      // The guard's memory is saved back when the guard runs (with the guard off, the store is not used).
      // An abort may come before the load has answered: then the store is left alone.
      ...judgeStore(
        spec.store,
        context.record,
        spec.guard !== 'off' && context.signal?.aborted !== true,
        view.messages,
      ),
    ];
  }
  const { error } = settled;
  if (!isDocumentedRejection(error, context.signal)) {
    return [
      { oracle: 'undocumented-rejection', signature: signatureOf(error), detail: describeThrown(error) },
    ];
  }
  const partial = partialHistoryOf(error);
  // As for a resolved run: an abort may come before the load has answered (the rejection may then be a
  // LoopStoppedError of an aborted run, under throwOnStop).
  const aborted = context.signal?.aborted === true;
  return [
    ...(partial === undefined ? [] : judgeMessages(partial, spec, context.executed, 'stopped outcome')),
    // A store that failed its load is not written back to (the state it holds is unknown).
    ...judgeStore(
      spec.store,
      context.record,
      !aborted && spec.guard !== 'off' && failedCallbackOf(error) !== 'store.get',
    ),
  ];
}

/** Target 2: a scripted run of hostile model outputs through `runToolLoop`. */
export function loopTarget(tools: FuzzRegistry = createFuzzRegistry(FUZZ_TOOLS)): FuzzTarget<LoopCase> {
  return {
    name: 'loop',
    arbitrary: loopCase(),
    start(spec) {
      const { signal, controller } = startAbort(spec.abort);
      const { store, record, requests, betweenRequests } = materializeStore(spec.store);
      // The last request's model and tool record: what the oracles judge.
      let model = new HostileModel(spec.steps);
      let data: RunData = { behaviors: spec.behaviors, executed: new Set() };
      const request = () =>
        runLoop({
          history: HISTORY,
          model,
          tools,
          policy: spec.policy,
          maxRoundTrips: spec.maxRoundTrips,
          timeBudgetMs: spec.timeBudgetMs,
          tokenBudget: spec.tokenBudget,
          guard: spec.guard,
          finalAnswer: spec.finalAnswer,
          throwOnStop: spec.throwOnStop,
          store,
          signal,
          data,
        });
      const session = async (): Promise<unknown> => {
        for (let done = 1; done < requests; done++) {
          await request().catch(() => undefined);
          betweenRequests();
          model = new HostileModel(spec.steps);
          data = { behaviors: spec.behaviors, executed: new Set() };
        }
        return request();
      };
      return {
        promise: session(),
        judge: (settled) => judge(settled, spec, { signal, executed: data.executed, model, record }),
        cancel: () => controller.abort(new Error('fuzz: the run hung')),
      };
    },
  };
}
