import type { ValidationIssue } from '../schema/validation-issue.js';
import type { ErrorClass } from './error-class.js';
import type { ToolErrorCode } from './tool-execution-result.js';

export interface ToolEventBase {
  readonly toolName: string;
  readonly toolCallId: string;
  /** Redacted and shortened: safe to log. */
  readonly argumentsSummary: string;
}

/** Developer events. The original error travels here, never to the model. */
export type ToolEvent =
  | (ToolEventBase & { readonly type: 'tool-call-start' })
  | (ToolEventBase & {
      readonly type: 'tool-call-retry';
      readonly attempt: number;
      readonly delayMs: number;
      readonly error: unknown;
    })
  | (ToolEventBase & {
      readonly type: 'tool-call-error';
      readonly code: ToolErrorCode;
      readonly errorClass: ErrorClass;
      readonly durationMs: number;
      readonly attempts: number;
      /** The original failure, unredacted. */
      readonly error: unknown;
      /** For `UNKNOWN_TOOL`: what was available. */
      readonly availableTools?: readonly string[];
    })
  | (ToolEventBase & {
      /** Audit record of a denied action. */
      readonly type: 'tool-call-denied';
      readonly error: unknown;
    })
  | (ToolEventBase & {
      /** A result broke the tool's output contract; `policy` says what was done about it. */
      readonly type: 'tool-call-contract-violation';
      readonly policy: 'feedback' | 'throw' | 'warn';
      readonly issues: readonly ValidationIssue[];
      /** The offending result, unredacted. */
      readonly value: unknown;
    })
  | (ToolEventBase & {
      readonly type: 'tool-call-end';
      readonly outcome: 'success' | ErrorClass;
      readonly code?: ToolErrorCode;
      readonly durationMs: number;
      readonly attempts: number;
    });

export type ToolEventListener = (event: ToolEvent) => void;

/** Calls the listener; a listener that throws never breaks an execution. */
export function emitTo(listener: ToolEventListener | undefined, event: ToolEvent): void {
  if (listener === undefined) return;
  try {
    listener(event);
  } catch {
    // A broken log sink must not change what the model sees or lose the calls' results.
  }
}
