import { DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../core/defaults.js';
import type { LoopOutcome, StopEvidence } from '../core/loop-outcome.js';
import { describeModelFailure } from '../core/model-failure.js';
import { redactForModel } from '../redact/redact.js';
import { explainLoop } from './explain-loop.js';

type Stopped = Extract<LoopOutcome, { type: 'stopped' }>;

/**
 * One paragraph for a developer on how a run ended: for a stop, which calls, which rounds, why, and
 * what to change (a loop hint, a limit, the tool's description). Pure; a completed or interrupted outcome
 * gets one sentence.
 */
export function explainStop(outcome: LoopOutcome): string {
  switch (outcome.type) {
    case 'completed':
      return `The run completed in ${plural(outcome.roundTrips, 'model call')} and ${plural(outcome.toolCalls, 'tool call')}.`;
    case 'interrupted':
      return `The run is paused before ${plural(outcome.pending.length, 'call')} (${outcome.pending.map((p) => p.toolName).join(', ')}) waiting for a decision: resume it with runToolLoop({ from, decisions }).`;
    case 'stopped':
      return `${stoppedText(outcome)}${wasted(outcome)}`;
    default: {
      const unreachable: never = outcome;
      throw new TypeError(`unknown outcome ${String(unreachable)}`);
    }
  }
}

function stoppedText(outcome: Stopped): string {
  const { evidence } = outcome;
  const at = `Stopped after ${plural(outcome.roundTrips, 'model call')} (${outcome.reason})`;
  switch (outcome.reason) {
    case 'LOOP_DETECTED':
      return evidence.kind === 'loop' ? `${at}: ${explainLoop(evidence, outcome.messages)}` : `${at}.`;
    case 'MAX_ROUND_TRIPS':
      return `${at}: the run reached its ceiling of ${ceilingOf(evidence)} model calls without a final answer, and the loop guard saw no loop. If the task is legitimately this long (a long pagination, a batch), raise maxRoundTrips; if the model wanders, give it fewer or clearer tools.`;
    case 'BUDGET_EXHAUSTED':
      return `${at}: ${budgetText(evidence)}`;
    case 'TOOL_CALL_LIMIT':
      return evidence.kind === 'limit' ? `${at}: ${limitText(evidence)}` : `${at}.`;
    case 'STORE_UNAVAILABLE':
      return `${at}: the store failed, so a write tool was not run (writes fail closed): ${errorText(evidence)}. Nothing was counted or recorded twice; run the request again when the store is back.`;
    case 'TOOL_FATAL':
      return `${at}: a tool failed with an error classified fatal (a defect, not a fixable input): ${errorText(evidence)}. Fix the tool, or classify the error with classifyError.`;
    case 'MODEL_ERROR':
      return `${at}: ${modelErrorText(evidence)}`;
    case 'ABORTED':
      return `${at}: the caller's signal aborted the run; the history holds what was done.`;
    case 'STOP_CONDITION':
      return `${at}: the stop condition ${evidence.kind === 'condition' ? `"${evidence.name}"` : ''} said stop.`;
    case 'CALLBACK_FAILED':
      return `${at}: the ${evidence.kind === 'error' ? (evidence.callback ?? 'a') : 'a'} callback failed: ${errorText(evidence)}. The run rejects with CallbackError, which carries this outcome.`;
    default: {
      const unreachable: never = outcome.reason;
      throw new TypeError(`unknown stop reason ${String(unreachable)}`);
    }
  }
}

function limitText(evidence: Extract<StopEvidence, { kind: 'limit' }>): string {
  const { tool, limit, scope } = evidence;
  const feedback = "with onLimitExceeded: 'feedback' the model is told instead of the run stopping.";
  switch (scope) {
    case 'per-tool':
      return `${tool} met the per-tool call limit of ${limit} in one turn. If the work needs more calls, raise limits.byTool.${tool} (or the tool's maxCallsPerTurn, or limits.perTool); ${feedback}`;
    case 'total':
      return `${tool} met the total call limit of ${limit} in one turn. If the work needs more calls, raise limits.total; ${feedback}`;
    case 'session-per-tool':
      return `${tool} met the session's limit of ${limit} calls to it (limits.perSession), counted in the store across requests and processes; ${feedback}`;
    case 'session-total':
      return `${tool} met the session's limit of ${limit} tool calls (limits.perSession.total), counted in the store across requests and processes; ${feedback}`;
    default: {
      const unreachable: never = scope;
      throw new TypeError(`unknown limit scope ${String(unreachable)}`);
    }
  }
}

function ceilingOf(evidence: StopEvidence): string {
  return evidence.kind === 'ceiling' ? String(evidence.max) : 'its';
}

function budgetText(evidence: StopEvidence): string {
  if (evidence.kind !== 'ceiling') return 'a budget ran out.';
  const setting = {
    tokens: 'tokenBudget',
    time: 'timeBudgetMs',
    cost: 'costBudget',
    'round-trips': 'maxRoundTrips',
  }[evidence.limit];
  return `the ${evidence.limit} budget ran out (${evidence.used} used of ${evidence.max}). Raise ${setting} if the task needs more.`;
}

/** What failed in a `MODEL_ERROR` stop: the provider's status and error name, the attempts, what to change. */
function modelErrorText(evidence: StopEvidence): string {
  const failure = evidence.kind === 'error' ? evidence.model : undefined;
  const described = failure === undefined ? undefined : describeModelFailure(failure);
  if (failure === undefined || described === undefined) {
    return `the model call failed or gave neither text nor tool calls: ${errorText(evidence)}.`;
  }
  const advice = {
    'not-retryable':
      ' The failure is not a transient one, so it was not retried: check the request (the key, the model name, the call settings).',
    'retries-exhausted':
      failure.timeoutMs === undefined
        ? ' The failure was transient: raise modelRetries, or try again later.'
        : ' Raise modelTimeoutMs if the model legitimately takes longer.',
    'wait-too-long': ' Try again later.',
    'time-budget': ' Raise timeBudgetMs to let the loop wait for the provider.',
    'answer-streamed': '',
  }[failure.gaveUp];
  return `${described}: ${errorText(evidence)}.${advice}`;
}

/** The error of the stop, redacted like a tool message (a log shows this text; the evidence keeps the error). */
function errorText(evidence: StopEvidence): string {
  if (evidence.kind !== 'error') return 'no error recorded';
  const { error } = evidence;
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'an error that cannot be printed';
  }
  return redactForModel(text, DEFAULT_MAX_MODEL_MESSAGE_CHARS);
}

function wasted(outcome: Stopped): string {
  return outcome.wastedRoundTrips > 0
    ? ` ${plural(outcome.wastedRoundTrips, 'model call')} went into the pattern after it first showed.`
    : '';
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
