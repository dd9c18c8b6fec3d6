import type { StopEvidence } from '../core/loop-outcome.js';
import { describeModelFailure } from '../core/model-failure.js';
import type { StopInfo } from './stop-info.js';

/**
 * What the user reads when a request stops and nothing better was given (no last answer, no handoff
 * text, no fallback of the caller's): why it stopped, in plain words (the settings to change are the
 * developer's, in `explainStop`), what took effect, what ran without a known effect and what may or may
 * not have happened, so that nobody repeats them blindly. It never invites a retry when something may
 * have been done.
 */
export function defaultStopText(stop: StopInfo): string {
  const why = `I could not finish this request: ${reasonText(stop)}.`;
  const changed = stop.writes.filter((write) => write.effect !== 'unknown');
  const ran = stop.writes.filter((write) => write.effect === 'unknown');
  if (changed.length + ran.length + stop.outcomeUnknown.length === 0)
    return `${why} Nothing was changed; you can rephrase the request or ask again.`;
  const told = [why];
  if (changed.length > 0) told.push(`Already done before it stopped: ${timesOf(changed)}.`);
  if (ran.length > 0) told.push(`Ran, effect unknown: ${timesOf(ran)}.`);
  if (stop.outcomeUnknown.length > 0)
    told.push(`May or may not have happened (check first): ${stop.outcomeUnknown.join(', ')}.`);
  told.push('Check what was done before asking again: repeating the request could do it again.');
  return told.join(' ');
}

function timesOf(writes: StopInfo['writes']): string {
  return writes.map(({ tool, times }) => `${tool} (${times === 1 ? 'once' : `${times} times`})`).join(', ');
}

function reasonText(stop: StopInfo): string {
  const { evidence } = stop;
  switch (stop.reason) {
    case 'MAX_ROUND_TRIPS':
    case 'BUDGET_EXHAUSTED':
      return budgetText(evidence);
    case 'LOOP_DETECTED':
      return 'it kept repeating the same steps without getting any further';
    case 'TOOL_CALL_LIMIT':
      if (evidence.kind !== 'limit') return 'it reached a limit of tool calls';
      switch (evidence.scope) {
        case 'per-tool':
          return `it reached the limit of ${evidence.limit} calls to ${evidence.tool} in one request`;
        case 'total':
          return `it reached the limit of ${evidence.limit} tool calls in one request`;
        case 'session-per-tool':
          return `it reached the limit of ${evidence.limit} calls to ${evidence.tool} in this conversation`;
        case 'session-total':
          return `it reached the limit of ${evidence.limit} tool calls in this conversation`;
        default: {
          const unreachable: never = evidence.scope;
          throw new TypeError(`unknown limit scope ${String(unreachable)}`);
        }
      }
    case 'STORE_UNAVAILABLE':
      return 'the service that keeps its state could not be reached, so it did not take any action it could not record';
    case 'TOOL_FATAL':
      return 'a tool failed in a way that cannot be retried';
    case 'MODEL_ERROR':
      return (
        (evidence.kind === 'error' && evidence.model !== undefined
          ? describeModelFailure(evidence.model)
          : undefined) ?? 'the model could not be reached or gave no usable answer'
      );
    case 'ABORTED':
      return 'it was cancelled';
    case 'STOP_CONDITION':
      return `a stop condition${evidence.kind === 'condition' ? ` (${evidence.name})` : ''} ended it`;
    case 'CALLBACK_FAILED':
      return 'a step of the application failed';
    default: {
      const unreachable: never = stop.reason;
      throw new TypeError(`unknown stop reason ${String(unreachable)}`);
    }
  }
}

function budgetText(evidence: StopEvidence): string {
  if (evidence.kind !== 'ceiling') return 'it ran out of its budget';
  const limit = evidence.limit;
  switch (limit) {
    case 'tokens':
      return `it used up its budget of ${evidence.max} tokens`;
    case 'time':
      return 'it ran out of time';
    case 'cost':
      return 'it reached its cost budget';
    case 'round-trips':
      return `it needed more steps than the ${evidence.max} one request may take`;
    default: {
      const unreachable: never = limit;
      throw new TypeError(`unknown limit ${String(unreachable)}`);
    }
  }
}
