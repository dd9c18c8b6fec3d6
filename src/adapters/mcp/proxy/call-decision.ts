import type { LoopEvidence } from '../../../core/guard-state.js';

/** The codes of the proxy's own refusals: toolwarden's vocabulary (`ERROR_CODES`). */
export type RefusalCode =
  | 'PERMISSION_DENIED'
  | 'TOOL_CALL_LIMIT'
  | 'LOOP_DETECTED'
  | 'RATE_LIMITED'
  | 'SECRET_DETECTED'
  | 'TOOL_DEFINITION_CHANGED'
  | 'TOOL_UNAVAILABLE';

/** A call the proxy answers itself, without the upstream: `text` starts with the code and is short and stable. */
export interface Refusal {
  readonly kind: 'refuse';
  readonly code: RefusalCode;
  readonly text: string;
  /** When a later try may pass (a rate limit's window ends), in ms from now. */
  readonly retryAfterMs?: number;
}

/**
 * A call that goes upstream, through the chain: its timeout, output contract and idempotency are the
 * tool's in the proxy's runtime (`proxyToolSettings`), its limits the runtime's (`limits.perSession`).
 */
export interface Forward {
  readonly kind: 'forward';
}

/** The call needs the user's yes first (MCP elicitation); `message` is what the user is asked. */
export interface Confirm {
  readonly kind: 'confirm';
  readonly message: string;
}

/** What the proxy does with a `tools/call` before it goes upstream. */
export type CallDecision = Forward | Refusal | Confirm;

/** The user's answer to a confirmation, or that the client could not be asked (no elicitation capability). */
export type ConfirmationAnswer = 'accept' | 'decline' | 'cancel' | 'unavailable';

/**
 * What the loop guard made of a call and its result, after it returned: nothing; a warning (the loop is
 * one repeat from a stop); a stop (the result goes to the model with `note` beside it, see `withNote`;
 * a stopped write is refused before it runs from now on); or a repeat (a stopped call ran again and gave
 * the same result once more: the model gets `refusal` instead of a result it already has). A warning's
 * `note` is set when the model is to be told.
 */
export type Observation =
  | { readonly kind: 'pass' }
  | { readonly kind: 'warn'; readonly evidence: LoopEvidence; readonly note?: string }
  | { readonly kind: 'stop'; readonly evidence: LoopEvidence; readonly note: string }
  | { readonly kind: 'repeat'; readonly evidence: LoopEvidence; readonly refusal: Refusal };
