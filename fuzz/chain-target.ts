import fc from 'fast-check';
import { executionLie, historyProblem } from './check-history.js';
import { limitProblem } from './check-limits.js';
import { type AssistantSpec, assistantSpec, materializeAssistant } from './hostile-calls.js';
import {
  type Behaviors,
  behaviorsSpec,
  FUZZ_TOOLS,
  type RunData,
  TOOL_NAMES,
  type ToolName,
} from './hostile-tools.js';
import { describeThrown, type Finding, type FuzzTarget, type Settled, signatureOf } from './oracle.js';
import { record } from './plain-record.js';
import { type AbortSpec, abortSpec, policySpec, startAbort } from './run-settings.js';
import {
  type ChainView,
  createFuzzRegistry,
  type FuzzPolicy,
  type FuzzRegistry,
  isDocumentedRejection,
  partialHistoryOf,
  runChain,
} from './targets.js';

/** An earlier call of this turn, as the caller's history has it. */
export interface PriorCall {
  readonly tool: ToolName;
  readonly code: 'ok' | 'TOOL_ERROR' | 'INVALID_ARGUMENTS' | 'UNKNOWN_TOOL' | 'TOOL_CALL_LIMIT';
  /** Whether the tool message carries `name` (histories converted from some providers do not). */
  readonly named: boolean;
}

export interface ChainCase {
  /** Rounds earlier in the turn (after the last user message), and whether an earlier turn precedes it. */
  readonly prior: { readonly earlierTurn: boolean; readonly rounds: readonly (readonly PriorCall[])[] };
  readonly assistant: AssistantSpec;
  readonly policy: FuzzPolicy;
  readonly behaviors: Behaviors;
  readonly abort: AbortSpec;
}

function priorCall(): fc.Arbitrary<PriorCall> {
  return record({
    tool: fc.constantFrom(...TOOL_NAMES),
    code: fc.constantFrom(
      'ok' as const,
      'TOOL_ERROR' as const,
      'INVALID_ARGUMENTS' as const,
      'UNKNOWN_TOOL' as const,
      'TOOL_CALL_LIMIT' as const,
    ),
    named: fc.oneof(
      { weight: 4, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
  });
}

export function chainCase(): fc.Arbitrary<ChainCase> {
  return record({
    prior: record({
      earlierTurn: fc.boolean(),
      rounds: fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        {
          weight: 2,
          arbitrary: fc.array(fc.array(priorCall(), { minLength: 1, maxLength: 4 }), { maxLength: 3 }),
        },
      ),
    }),
    assistant: assistantSpec(),
    policy: policySpec(),
    behaviors: behaviorsSpec(),
    abort: abortSpec(),
  });
}

/** The caller's history: well formed (the chain is not asked to repair the caller's own messages). */
export function priorHistory(prior: ChainCase['prior']): unknown[] {
  const history: unknown[] = [{ role: 'system', content: 'You are fuzzed.' }];
  if (prior.earlierTurn) {
    history.push({ role: 'user', content: 'earlier' });
    history.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'old_1', name: 'read_a', arguments: '{}' }],
    });
    history.push({ role: 'tool', toolCallId: 'old_1', name: 'read_a', content: '1', isError: false });
  }
  history.push({ role: 'user', content: 'go' });
  prior.rounds.forEach((round, r) => {
    const calls = round.map((call, i) => ({ id: `prior_${r}_${i}`, name: call.tool, arguments: '{}' }));
    history.push({ role: 'assistant', content: '', toolCalls: calls });
    round.forEach((call, i) => {
      const message: Record<string, unknown> = {
        role: 'tool',
        toolCallId: `prior_${r}_${i}`,
        content: call.code === 'ok' ? '"ok"' : `${call.code}: earlier`,
        isError: call.code !== 'ok',
      };
      if (call.named) message.name = call.tool;
      if (call.code !== 'ok') message.errorCode = call.code;
      history.push(message);
    });
  });
  return history;
}

const toolNames = new Set<string>(TOOL_NAMES);

/** The history oracles, applied to a resolved result or to a documented error's partial result. */
export function judgeHistory(
  messages: readonly unknown[],
  history: readonly unknown[],
  policy: FuzzPolicy,
  executed: ReadonlySet<string>,
  where: string,
): Finding[] {
  const from = history.length;
  for (let i = 0; i < from; i++) {
    if (messages[i] !== history[i])
      return [{ oracle: 'malformed-history', signature: `${where}: the caller's history was changed` }];
  }
  const problem = historyProblem(messages, from) ?? executionLie(messages, from, executed);
  if (problem !== undefined) return [{ oracle: 'malformed-history', signature: `${where}: ${problem}` }];
  const limit = limitProblem(messages, from, {
    perTool: policy.perToolLimit,
    total: policy.totalLimit,
    tools: toolNames,
  });
  return limit === undefined ? [] : [{ oracle: 'limits', signature: `${where}: ${limit}` }];
}

function judge(
  settled: Exclude<Settled, { status: 'hung' }>,
  spec: ChainCase,
  history: readonly unknown[],
  signal: AbortSignal | undefined,
  executed: ReadonlySet<string>,
): Finding[] {
  if (settled.status === 'resolved') {
    const view = settled.value as ChainView;
    const findings = judgeHistory(view.messages, history, spec.policy, executed, 'result');
    const answers = view.messages.length - history.length - 1;
    if (findings.length === 0 && answers !== view.calls.length) {
      findings.push({
        oracle: 'malformed-history',
        signature: 'result: results and tool messages differ in number',
      });
    }
    return findings;
  }
  const { error } = settled;
  if (!isDocumentedRejection(error, signal)) {
    return [
      { oracle: 'undocumented-rejection', signature: signatureOf(error), detail: describeThrown(error) },
    ];
  }
  const partial = partialHistoryOf(error);
  return partial === undefined ? [] : judgeHistory(partial, history, spec.policy, executed, 'partial result');
}

/** Target 1: one hostile model output through `executeToolCalls`. */
export function chainTarget(tools: FuzzRegistry = createFuzzRegistry(FUZZ_TOOLS)): FuzzTarget<ChainCase> {
  return {
    name: 'chain',
    arbitrary: chainCase(),
    start(spec) {
      const history = priorHistory(spec.prior);
      const data: RunData = { behaviors: spec.behaviors, executed: new Set() };
      const { signal, controller } = startAbort(spec.abort);
      const promise = runChain({
        history,
        assistant: materializeAssistant(spec.assistant),
        tools,
        policy: spec.policy,
        signal,
        data,
      });
      return {
        promise,
        judge: (settled) => judge(settled, spec, history, signal, data.executed),
        cancel: () => controller.abort(new Error('fuzz: the run hung')),
      };
    },
  };
}
