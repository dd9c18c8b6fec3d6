import type { ErrorClass } from './error-class.js';
import type { ToolErrorCode } from './tool-execution-result.js';
import type { ValidationIssue } from './validation-issue.js';

/**
 * Developer events. They carry no unredacted content (errors, results) unless the execution was asked to
 * include it (`includeContent: true`).
 */
export type ToolEvent = {
  readonly toolName: string;
  readonly toolCallId: string;
  /** Redacted and shortened: safe to log. */
  readonly argumentsSummary: string;
} & (
  | { readonly type: 'tool-call-start' }
  | {
      readonly type: 'tool-call-retry';
      /** The error's `name` (`TypeError`, `ToolTimeoutError`, ...), or its `typeof` when it has none. */
      readonly errorType: string;
      /** The original failure, unredacted: present only when the execution was asked to `includeContent`. */
      readonly error?: unknown;
      readonly attempt: number;
      readonly delayMs: number;
    }
  | {
      /**
       * The store that counts the session's calls, or that keeps a write's idempotency record, failed
       * for this call: a read tool ran uncounted (`failedOpen`, under `onStoreFailure: 'open'`), or the
       * call was refused as unavailable. The run's own store failures are `store-fail` events too
       * (`operation: 'guard-load' | 'guard-save'`, see `RunEvent`).
       */
      readonly type: 'store-fail';
      /** What the store was asked: to count the session's calls (`call-count`) or to keep a write's record (`idempotency`). */
      readonly operation: 'call-count' | 'idempotency';
      readonly failedOpen: boolean;
      /** The store's error: its `name`, or its `typeof` when it has none. */
      readonly errorType: string;
      /** The store's error, unredacted: present only with `includeContent`. */
      readonly error?: unknown;
    }
  | {
      /**
       * What became of an idempotent write's record beyond the claim and the result: `taken-over` (a started
       * record whose lease had passed, of a process taken to have died, was claimed and the call run again:
       * at-least-once), `outcome-unknown` (at most once, the call was cut off after its tool started: a
       * timeout, a transient failure, a defect, an abort; it may have acted, so identical calls are refused
       * `OUTCOME_UNKNOWN` until someone checks and calls `forgetIdempotencyRecord`), `not-recorded` (the call ran but its outcome could not be written: the store failed,
       * with its error here, or the claim was taken over meanwhile), `not-released` (the claim of a call
       * that did not finish could not be deleted: it holds until its lease passes). Never the key.
       */
      readonly type: 'idempotency-warn';
      readonly action: 'taken-over' | 'outcome-unknown' | 'not-recorded' | 'not-released';
      /** The store's error behind the warning, when there was one: its `name` or `typeof`. */
      readonly errorType?: string;
      /** That error, unredacted: present only with `includeContent`. */
      readonly error?: unknown;
    }
  | {
      /** A result broke the tool's output contract; `policy` says what was done about it (before the call's end). */
      readonly type: 'contract-warn';
      readonly policy: 'feedback' | 'throw' | 'warn';
      readonly issues: readonly ValidationIssue[];
      /** The offending result, unredacted: present only with `includeContent`. */
      readonly value?: unknown;
    }
  | {
      /**
       * The one event of a call's end, whatever became of it: `outcome` is `success` or the failure's
       * class, with its `code` and `errorType` (and the error itself only with `includeContent`).
       */
      readonly type: 'tool-call-end';
      readonly outcome: 'success' | ErrorClass;
      /**
       * Who the call is: `identity.digest` is the SHA-256 of the tool name and the canonical arguments
       * (`argumentsDigest`), which ties the call to an approval or an audit. Worked out when first read,
       * so a listener that never reads it does not pay for the hash.
       */
      readonly identity: {
        /** SHA-256 (hex) of the tool name, a NUL and the canonical arguments: the `argumentsDigest` of the call. */
        readonly digest: string;
      };
      /** A decision given on resume approved the call (it ran) or refused it. */
      readonly approval?: 'approved' | 'denied';
      /** Who gave that decision (its `by`), as given: only with `approval`, when the decision named one. */
      readonly decidedBy?: string;
      readonly code?: ToolErrorCode;
      readonly durationMs: number;
      readonly attempts: number;
      /** For `UNKNOWN_TOOL`: what was available. */
      readonly availableTools?: readonly string[];
      /** For a denied call: the reason a hook or `authorize` gave (the model is told only the denial text). */
      readonly denialReason?: string;
      /** The id of the call that ran and whose result this call shares; absent for a call that ran itself. */
      readonly sharedWith?: string;
      /** A replay: the id of the earlier identical write whose recorded result this is; the tool did not run. */
      readonly replayOf?: string;
      /** A failed call's error: its `name`, or its `typeof` when it has none. */
      readonly errorType?: string;
      /** The failure, unredacted: present only with `includeContent`. */
      readonly error?: unknown;
    }
);

/** How a failure is described in an event: its kind always, the value itself only with `includeContent`. */
export type ToolEventErrorFields = Pick<
  Extract<ToolEvent, { type: 'tool-call-retry' }>,
  'errorType' | 'error'
>;

/** A call's identity as events show it: the digest of its tool and arguments, worked out on first read. */
export type ArgumentsIdentity = Extract<ToolEvent, { type: 'tool-call-end' }>['identity'];

/** Where a call's developer events go. */
export type ToolEventListener = (event: ToolEvent) => void;

/** Where one execution's events go. */
export interface EventSink {
  /** False when nobody listens: then no event (and no argument summary) needs to be built. */
  readonly listening: boolean;
  readonly includeContent: boolean;
  emit(event: ToolEvent): void;
}

/** A sink for one execution; a listener that throws never breaks the execution. */
export function createEventSink(listener: ToolEventListener | undefined, includeContent = false): EventSink {
  return {
    listening: listener !== undefined,
    includeContent,
    emit(event) {
      if (listener === undefined) return;
      try {
        listener(event);
      } catch {
        // A broken log sink must not change what the model sees or lose the calls' results.
      }
    },
  };
}

/** The error fields of an event: the error's kind, and the error itself only when content is included. */
export function errorFields(error: unknown, includeContent: boolean): ToolEventErrorFields {
  return includeContent ? { errorType: errorType(error), error } : { errorType: errorType(error) };
}

/** A failure's type for an event: its `name`, or `typeof` (read without trusting its getters). */
export function errorType(error: unknown): string {
  if (error === null) return 'null';
  if (typeof error !== 'object' && typeof error !== 'function') return typeof error;
  try {
    const name = (error as { name?: unknown }).name;
    return typeof name === 'string' && name !== '' ? name.slice(0, 100) : typeof error;
  } catch {
    return typeof error;
  }
}
