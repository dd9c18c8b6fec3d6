import type { StopInfo } from './loop-options.js';
import type { StopEvidence } from './loop-outcome.js';
import { describeModelFailure } from './model-failure.js';

/**
 * What the user reads when a request stops and nothing better was given (no last answer, no handoff
 * text, no fallback of the caller's): why it stopped, in the user's terms with the setting to change,
 * and which write tools already ran, so that nobody repeats them blindly. It never invites a retry when
 * something was already done.
 */
export function defaultStopText(stop: StopInfo): string {
  const why = `I could not finish this request: ${reasonText(stop)}.`;
  if (stop.writes.length === 0)
    return `${why} Nothing was changed; you can rephrase the request or ask again.`;
  const done = stop.writes.map(({ tool, times }) => `${tool} (${times === 1 ? 'once' : `${times} times`})`);
  return `${why} Already done before it stopped: ${done.join(', ')}. Check what was done before asking again: repeating the request would do it again.`;
}

function reasonText(stop: StopInfo): string {
  const { evidence } = stop;
  switch (stop.reason) {
    case 'max-round-trips':
    case 'budget-exhausted':
      return budgetText(evidence);
    case 'loop-detected':
      return 'it kept repeating the same steps without getting any further';
    case 'tool-call-limit':
      if (evidence.kind !== 'limit') return 'it reached a limit of tool calls';
      switch (evidence.scope) {
        case 'per-tool':
          return `it reached the limit of ${evidence.limit} calls to ${evidence.tool} in one request (the call limits)`;
        case 'total':
          return `it reached the limit of ${evidence.limit} tool calls in one request (limits.total)`;
        case 'session-per-tool':
          return `it reached the limit of ${evidence.limit} calls to ${evidence.tool} in this conversation (limits.perSession)`;
        case 'session-total':
          return `it reached the limit of ${evidence.limit} tool calls in this conversation (limits.perSession.total)`;
        default: {
          const unreachable: never = evidence.scope;
          throw new TypeError(`unknown limit scope ${String(unreachable)}`);
        }
      }
    case 'store-unavailable':
      return 'the service that keeps its state could not be reached, so it did not take any action it could not record';
    case 'tool-fatal':
      return 'a tool failed in a way that cannot be retried';
    case 'model-error':
      return (
        (evidence.kind === 'error' && evidence.model !== undefined
          ? describeModelFailure(evidence.model)
          : undefined) ?? 'the model could not be reached or gave no usable answer'
      );
    case 'aborted':
      return 'it was cancelled';
    case 'stop-condition':
      return `a stop condition${evidence.kind === 'condition' ? ` (${evidence.name})` : ''} ended it`;
    case 'callback-failed':
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
      return `it used up its budget of ${evidence.max} tokens (the tokenBudget setting)`;
    case 'time':
      return `it ran out of time (${evidence.max} ms, the timeBudgetMs setting)`;
    case 'cost':
      return 'it reached its cost budget (the costBudget setting)';
    case 'round-trips':
      return `it needed more than the ${evidence.max} model calls one request may make (the maxRoundTrips setting)`;
    default: {
      const unreachable: never = limit;
      throw new TypeError(`unknown limit ${String(unreachable)}`);
    }
  }
}
