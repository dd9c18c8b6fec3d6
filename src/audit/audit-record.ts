import type { ErrorClass } from '../core/error-class.js';
import type { LoopUsage, StopReason } from '../core/loop-outcome.js';
import type { AwaitingCall } from '../core/run-event.js';
import type { StopEvidenceSummary } from '../core/stop-evidence-summary.js';
import type { ToolErrorCode } from '../core/tool-execution-result.js';

/**
 * Version of the audit record's shape: a reader checks it before it reads a line or a row. Version 2: a run
 * record's `stopReason` is the stop's code (`LOOP_DETECTED`); version 1 wrote the code in kebab-case, which
 * `toolwarden report` still reads.
 */
export const AUDIT_SCHEMA_VERSION = 2;

/** The ids of the run a call belongs to, as its `run-start` event gave them. */
export interface AuditRunIds {
  readonly runId: string;
  readonly sessionId?: string;
  readonly turnId?: string;
}

/**
 * One finished tool call. Never the raw arguments, the idempotency key, a result or an error's message:
 * the arguments as their redacted summary and their digest, the failure as its class and code.
 */
export interface AuditCallRecord extends Partial<AuditRunIds> {
  readonly schemaVersion: typeof AUDIT_SCHEMA_VERSION;
  readonly kind: 'call';
  /** When the record was made (ISO 8601). */
  readonly at: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** Redacted and shortened. */
  readonly argumentsSummary: string;
  readonly argumentsDigest: string;
  readonly outcome: 'success' | ErrorClass;
  /** A failure's code; `LOOP_DETECTED` for a call the MCP proxy refused because the loop guard had stopped it. */
  readonly code?: ToolErrorCode | 'LOOP_DETECTED';
  readonly durationMs: number;
  readonly attempts: number;
  /** Attempts beyond the first. */
  readonly retries: number;
  /** True when the result is an earlier identical write's record (the tool did not run); `replayOf` is that call. */
  readonly replay: boolean;
  readonly replayOf?: string;
  /** The call that ran and whose result this call shares. */
  readonly sharedWith?: string;
  /** A decision given on resume (a person's) approved the call or refused it. */
  readonly approval?: 'approved' | 'denied';
  /** Who gave that decision (the decision's `by`: a user id or name), as given; absent when it named nobody. */
  readonly decidedBy?: string;
  /** The reason a hook or `authorize` gave when the call was denied. */
  readonly denialReason?: string;
  /** The result broke the tool's output contract (whatever the policy did about it: `code` says when it failed the call). */
  readonly contractViolation?: true;
}

/** One finished run (or one part of it, up to a pause or from a resume). */
export interface AuditRunRecord extends AuditRunIds {
  readonly schemaVersion: typeof AUDIT_SCHEMA_VERSION;
  readonly kind: 'run';
  readonly at: string;
  /** True when the run continued a saved state. */
  readonly resumed: boolean;
  readonly outcome: 'completed' | 'stopped' | 'interrupted';
  readonly stopReason?: StopReason;
  readonly evidence?: StopEvidenceSummary;
  /** The calls an interrupted run waits on for an approval. */
  readonly awaitingApproval?: readonly AwaitingCall[];
  readonly roundTrips: number;
  /** The run's ceiling of model calls (`maxRoundTrips`), as its `run-start` gave it. */
  readonly maxRoundTrips?: number;
  readonly toolCalls: number;
  readonly usage: LoopUsage;
}

/** One line of the audit log. */
export type AuditRecord = AuditCallRecord | AuditRunRecord;
