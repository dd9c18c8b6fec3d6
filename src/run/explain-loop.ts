import { INVALID_ARGUMENT_CODES } from '../chain/limits.js';
import { ERROR_CODES } from '../core/errors/error-codes.js';
import type { CallOutcome, LoopEvidence } from '../core/guard-state.js';
import type { Message } from '../core/message.js';

/**
 * What a developer should change about a loop the guard stopped, by its evidence: the detector, how the
 * calls ended (a failure, a denial, a result) and whether their tools may change the world. Read hints
 * (`polled`, `ignoreFields`) are advised only for reads that answered.
 */
export function explainLoop(evidence: LoopEvidence, messages: readonly Message[]): string {
  const tools = evidence.toolNames.join(', ');
  const rounds = `round${evidence.rounds.length === 1 ? '' : 's'} ${evidence.rounds.join(', ')}`;
  switch (evidence.detector) {
    case 'exact-repeat':
      return `${tools} was called with the same arguments ${evidence.occurrences} times (${rounds}) ${repeatAdvice(evidence, messages)}`;
    case 'same-result':
      switch (sharedOutcome(evidence)) {
        case 'denied':
          return `${evidence.occurrences} different calls to ${tools} (${rounds}) were all refused as not permitted: the model kept rewording, or switching tools for, a call this caller may not make. ${PERMISSION_ADVICE}`;
        case 'error':
          return `${evidence.occurrences} different calls to ${tools} (${rounds}) failed with the same error: the model kept changing the input, or the tool, and met the same failure each time. The error names what blocks the work (a precondition, a business rule): fix that, or make the error tell the model to stop and ask the user.`;
        default:
          return `${evidence.occurrences} different calls to ${tools} (${rounds}) gave the same content-bearing result: the model kept changing the arguments (rewording them, or passing a fresh token) and got nothing new. If different arguments legitimately give the same answer for this tool, declare loop: { sharedResults: true }; otherwise the tool's description should say what it can and cannot find.`;
      }
    case 'unchanged-poll':
      return `${tools}, declared polled, answered the same ${evidence.occurrences} times (${rounds}). If the work it waits on legitimately takes longer, raise loop: { polled: { maxUnchanged } }, or let the model tell the user to come back later.`;
    case 'cycle':
      return `the rounds ${evidence.rounds.join(', ')} repeat a sequence of ${evidence.period ?? 2} rounds (${tools}) with the same calls and results. The model alternates between steps that do not move it on; look at what each result tells it to do next.`;
    case 'no-progress':
      return `${plural(evidence.occurrences, 'round')} in a row (${rounds}) only repeated calls and results already seen in this request (${tools}). Raise guard.noProgressRounds only if such rounds are legitimate for your tools.`;
    case 'still-unavailable':
      return `${tools} failed transiently ${evidence.occurrences} times (${rounds}) after the chain's own retries: the dependency is down. Fix it, or raise guard.transientRepeatLimit.`;
    default: {
      const unreachable: never = evidence.detector;
      throw new TypeError(`unknown detector ${String(unreachable)}`);
    }
  }
}

const PERMISSION_ADVICE =
  'Leave the tool out for callers who may not use it, or grant the permission if they should have it.';

/** Error codes of calls the chain refused before the tool ran: the input schema is what to fix. */
const INPUT_CODES: ReadonlySet<string> = new Set([
  ...INVALID_ARGUMENT_CODES,
  'UNKNOWN_TOOL',
  'TOO_MANY_INVALID_ATTEMPTS',
]);

/** What to change about one call repeated with one result, by how it ended and what its tool may do. */
function repeatAdvice(evidence: LoopEvidence, messages: readonly Message[]): string {
  const outcome = sharedOutcome(evidence);
  const write = evidence.fingerprints.length > 0 && evidence.fingerprints.every((f) => f.write);
  switch (outcome) {
    case 'denied':
      return `and was refused as not permitted each time: the model kept asking for what this caller may not do. ${PERMISSION_ADVICE}`;
    case 'error': {
      const code = lastErrorCode(messages, evidence.toolNames);
      if (code === 'TOOL_CALL_LIMIT')
        return "and was refused by a call limit each time. If the work needs more calls, raise the limit its refusal names (limits.byTool, limits.total, limits.perSession); otherwise tell the model in the tool's description how many calls it may make.";
      if (code === 'OUTCOME_UNKNOWN')
        return 'and was refused with OUTCOME_UNKNOWN each time: an identical earlier call was cut off and may have acted. Check whether it did; if not, forgetIdempotencyRecord lets the next call run; if it did, tell the user.';
      if (code !== undefined && INPUT_CODES.has(code))
        return `and its arguments were refused with ${code} each time, before the tool ran: make the input schema and the tool's description say what a valid call looks like.`;
      const failing = `with ${code ?? 'the same error'}`;
      return write
        ? `and the write kept failing ${failing}: fix what it reports (a precondition the call does not meet), or make the tool's error tell the model what to do instead (ask the user, call another tool first), so it does not send the same call again.`
        : `and kept failing ${failing}: make the tool's error tell the model what to change or what to do instead, so it does not send the same call again.`;
    }
    case 'ok':
      return write
        ? "and gave the same result each time: the model did not take the result as done. Make the tool's result say plainly that the action is done and what comes next; if running it again is the work, the calls should differ (an item, a sequence number); if the tool only reads, declare its effect 'read' so that the read hints (loop: { polled, ignoreFields }) apply."
        : "and gave the same result each time, so the model could not use what it got. If it is a read meant to be called again with the same answer (a polled status, a wait tool between polls), declare loop: { polled: true } on it; if its result holds a field that changes on every call without meaning anything (a timestamp, a request id), list it in loop: { ignoreFields }; otherwise check that the tool's description promises what its result says.";
    case 'transient':
      return 'and failed transiently each time: the dependency is down. Fix it, or raise guard.transientRepeatLimit.';
    case undefined:
      return "and gave the same result each time, so the model could not use what it got: check that the tool's description promises what its result says.";
    default: {
      const unreachable: never = outcome;
      throw new TypeError(`unknown call outcome ${String(unreachable)}`);
    }
  }
}

/** How every call of the evidence ended, when they all ended alike (undefined when they did not). */
function sharedOutcome(evidence: LoopEvidence): CallOutcome | undefined {
  const first = evidence.fingerprints[0]?.outcome;
  return evidence.fingerprints.every((f) => f.outcome === first) ? first : undefined;
}

/** The code of the latest failure of one of these tools in the history (what the model kept being told). */
function lastErrorCode(messages: readonly Message[], tools: readonly string[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'tool' || !message.isError || !tools.includes(message.name)) continue;
    // A code of the table only: a history's own text is no part of a log line.
    const code = message.errorCode;
    return code !== undefined && Object.hasOwn(ERROR_CODES, code) ? code : undefined;
  }
  return undefined;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
