import { DEFAULT_MAX_DECIDED_BY_CHARS } from '../core/defaults.js';
import { ApprovalError } from '../core/errors/approval-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { describeOptionValue } from '../options/check-option.js';
import { argumentsDigest } from './arguments-digest.js';

/** Characters of a denial's own message, at most (it is shown to the model, redacted). */
export const MAX_DENIAL_MESSAGE_CHARS = 1000;

/**
 * A decision for a call an interrupted response waits on, given when it is resumed.
 * `{ approve: true, argumentsDigest }` runs the call, but only while its arguments are the ones approved
 * (the pending call's `argumentsDigest`); `{ approve: false, message? }` refuses it, and the model is told
 * `message` (default: the policy's `deniedText`). `'run'` and `'deny'` are the short forms, for a caller
 * that holds the paused state itself; an approval of a run kept in a store must name the digest.
 * `by` says who decided (a user id or name, at most `DEFAULT_MAX_DECIDED_BY_CHARS`, no control
 * characters): the call's `tool-call-end` event and audit record carry it as `decidedBy`.
 */
export type ResumeDecision =
  | 'run'
  | 'deny'
  | { readonly approve: true; readonly argumentsDigest: string; readonly by?: string }
  | { readonly approve: false; readonly message?: string; readonly by?: string };

/** A decision checked against its call: run it, or refuse it (with a person's message for the model); `by` who decided. */
export type SettledDecision =
  | { readonly type: 'run'; readonly by?: string }
  | { readonly type: 'deny'; readonly message?: string; readonly by?: string };

/** Control characters (C0, DEL, C1) and the line and paragraph separators: none may be in `by`. */
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/gu;

/** What a decision is checked against: the call as the model made it. */
export interface DecidedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The raw argument text. */
  readonly arguments: string;
}

export interface SettleOptions {
  /** Names the option in errors (`decisions`). */
  readonly option: string;
  /** A decision for an id of no call in `calls` is refused (`not-pending`); else it is left out. */
  readonly strict: boolean;
  /** `'run'` is refused: an approval must name the digest it approved (a run kept in a store). */
  readonly requireDigest: boolean;
  readonly runId?: string | undefined;
}

/**
 * Checks every decision against the call it decides, all before anything runs: a decision of another
 * shape is `InvalidOptionsError`; an approval whose digest is not the call's is `ApprovalError`
 * (`arguments-changed`), as is a decision for a call that does not wait (`not-pending`, when `strict`).
 */
export function settleDecisions(
  decisions: Iterable<readonly [string, unknown]>,
  calls: readonly DecidedCall[],
  options: SettleOptions,
): Map<string, SettledDecision> {
  const byId = new Map(calls.map((call) => [call.toolCallId, call]));
  const settled = new Map<string, SettledDecision>();
  for (const [id, decision] of decisions) {
    const option = `${options.option}.${String(id).slice(0, 100)}`;
    const call = byId.get(id);
    if (call === undefined) {
      if (!options.strict) continue;
      throw new ApprovalError({
        reason: 'not-pending',
        runId: options.runId,
        toolCallId: id,
        message: `the run does not wait for a decision on call ${JSON.stringify(id.slice(0, 100))}`,
      });
    }
    settled.set(id, settle(decision, call, option, options));
  }
  return settled;
}

function settle(
  decision: unknown,
  call: DecidedCall,
  option: string,
  options: SettleOptions,
): SettledDecision {
  if (decision === 'deny') return { type: 'deny' };
  if (decision === 'run') {
    if (!options.requireDigest) return { type: 'run' };
    throw new InvalidOptionsError({
      option,
      message: "approving a stored run takes { approve: true, argumentsDigest } (the pending call's digest)",
    });
  }
  const { approve, argumentsDigest: digest, message, by: rawBy } = readFields(decision, option);
  if (approve !== true && approve !== false) throw wrongShape(option, decision);
  const by = decidedBy(rawBy, option);
  if (approve === true) {
    if (typeof digest !== 'string') {
      throw new InvalidOptionsError({
        option: `${option}.argumentsDigest`,
        message: "is required: the pending call's argumentsDigest",
      });
    }
    if (digest !== argumentsDigest(call.toolName, call.arguments)) {
      throw new ApprovalError({
        reason: 'arguments-changed',
        runId: options.runId,
        toolCallId: call.toolCallId,
        message: `the approval of call ${JSON.stringify(call.toolCallId.slice(0, 100))} names other arguments than the call's`,
      });
    }
    return { type: 'run', ...by };
  }
  if (message === undefined) return { type: 'deny', ...by };
  if (typeof message !== 'string' || message.trim() === '' || message.length > MAX_DENIAL_MESSAGE_CHARS) {
    throw new InvalidOptionsError({
      option: `${option}.message`,
      message: `must be a non-empty string of at most ${MAX_DENIAL_MESSAGE_CHARS} characters, got ${describeOptionValue(message)}`,
    });
  }
  return { type: 'deny', message, ...by };
}

/**
 * Who decided, as given: the operator's id, not model text, so it is not redacted, only bounded (a
 * non-empty string of at most `DEFAULT_MAX_DECIDED_BY_CHARS`, without control characters, so a log line
 * stays one line). Anything else is refused.
 */
function decidedBy(by: unknown, option: string): { readonly by?: string } {
  if (by === undefined) return {};
  if (
    typeof by !== 'string' ||
    by.trim() === '' ||
    by.length > DEFAULT_MAX_DECIDED_BY_CHARS ||
    CONTROL_CHARACTER.test(by)
  ) {
    throw new InvalidOptionsError({
      option: `${option}.by`,
      message: `must be a non-empty string of at most ${DEFAULT_MAX_DECIDED_BY_CHARS} characters without control characters (who decided), got ${describeOptionValue(escaped(by))}`,
    });
  }
  return { by };
}

/** A refused `by` as the error quotes it: its control characters written as `\uXXXX` (JSON leaves U+0085 and U+2028 raw). */
function escaped(by: unknown): unknown {
  if (typeof by !== 'string') return by;
  return by
    .slice(0, 50)
    .replace(CONTROL_CHARACTERS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The decision's fields, each read once; anything unreadable is a decision of the wrong shape. */
function readFields(
  decision: unknown,
  option: string,
): { approve?: unknown; argumentsDigest?: unknown; message?: unknown; by?: unknown } {
  if (typeof decision === 'object' && decision !== null && !Array.isArray(decision)) {
    try {
      const { approve, argumentsDigest: digest, message, by } = decision as Record<string, unknown>;
      return { approve, argumentsDigest: digest, message, by };
    } catch {
      // A throwing getter or Proxy trap: refused below.
    }
  }
  throw wrongShape(option, decision);
}

function wrongShape(option: string, decision: unknown): InvalidOptionsError {
  return new InvalidOptionsError({
    option,
    message: `must be "run", "deny", { approve: true, argumentsDigest, by? } or { approve: false, message?, by? }, got ${describeOptionValue(decision)}`,
  });
}
