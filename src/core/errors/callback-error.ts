import type { LoopOutcome } from '../loop-outcome.js';
import type { ToolExecutionResult } from '../tool-execution-result.js';
import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.CallbackError');

/** Characters of the cause's message repeated in this error's default message, at most. */
const MAX_CAUSE_MESSAGE_CHARS = 200;

/**
 * A callback the caller passed (handoff, fallback, cost, a store's load or save, `decide`,
 * `wrapToolExecution`, `wrapModelCall`, a stop condition) threw or returned something it must not. Nothing
 * done so far is lost: `partialResult` or `outcome` holds it.
 */
export class CallbackError extends ToolwardenError<'CALLBACK_FAILED'> {
  override readonly name = 'CallbackError';
  readonly callback: string;
  readonly partialResult: ToolExecutionResult | undefined;
  readonly outcome: LoopOutcome | undefined;
  readonly [MARKER] = true;

  constructor({
    callback,
    cause,
    partialResult,
    outcome,
    message,
  }: {
    /** Which callback failed, as the option is named: `handoff`, `cost`, `store.set`, `decide`, ... */
    callback: string;
    /** What it threw (or a `TypeError` describing what it returned), untouched. */
    cause: unknown;
    /** The chain's result so far, when the callback failed inside a tool execution. */
    partialResult?: ToolExecutionResult | undefined;
    /** The loop's outcome so far, when the callback failed inside a run. */
    outcome?: LoopOutcome | undefined;
    /** Defaults to one that names the callback and repeats the cause's message. */
    message?: string | undefined;
  }) {
    super({ code: 'CALLBACK_FAILED', message: message ?? defaultMessage(callback, cause), cause });
    this.callback = callback;
    this.partialResult = partialResult;
    this.outcome = outcome;
  }

  static override isInstance(value: unknown): value is CallbackError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}

function defaultMessage(callback: string, cause: unknown): string {
  const said = messageOf(cause);
  return said === undefined || said === ''
    ? `The ${callback} callback failed`
    : `The ${callback} callback failed: ${said.length > MAX_CAUSE_MESSAGE_CHARS ? `${said.slice(0, MAX_CAUSE_MESSAGE_CHARS)}…` : said}`;
}

/** The cause's message, if it has one that can be read without throwing. */
function messageOf(cause: unknown): string | undefined {
  if (typeof cause === 'string') return cause;
  if (typeof cause !== 'object' || cause === null) return undefined;
  try {
    const message = (cause as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}
