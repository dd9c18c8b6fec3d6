import type { ErrorClass } from '../core/error-class.js';
import type { LoopUsage, StopReason } from '../core/loop-outcome.js';
import type { RunEvent } from '../core/run-event.js';
import type { ToolErrorCode } from '../core/tool-execution-result.js';

/**
 * Version of the audit record's shape: a reader checks it before it reads a line or a row. Version 2: a run
 * record's `stopReason` is the stop's code (`LOOP_DETECTED`); version 1 wrote the code in kebab-case, which
 * `toolwarden report` still reads.
 */
export const AUDIT_SCHEMA_VERSION = 2;

/** The ids of the run a call belongs to, as its `run-start` event gave them. */
export type AuditRunIds = Pick<AuditRunRecord, 'runId' | 'sessionId' | 'turnId'>;

/**
 * One finished tool call. Never the raw arguments, the idempotency key, a result or an error's message:
 * the arguments as their redacted summary and their digest, the failure as its class and code.
 */
export interface AuditCallRecord
  extends Partial<Pick<AuditRunRecord, 'runId' | 'sessionId' | 'turnId' | 'clientId'>> {
  /** The record shape's version (`AUDIT_SCHEMA_VERSION`). */
  readonly schemaVersion: typeof AUDIT_SCHEMA_VERSION;
  /** A call's record. */
  readonly kind: 'call';
  /** When the record was made (ISO 8601). */
  readonly at: string;
  /** The call's id, as the model gave it or the chain made it. */
  readonly toolCallId: string;
  /** The tool the model asked for, as it asked (an unknown tool's name too). */
  readonly toolName: string;
  /** Redacted and shortened. */
  readonly argumentsSummary: string;
  /** A digest of the canonical arguments: equal digests, equal arguments. */
  readonly argumentsDigest: string;
  /** `success`, or the failure's error class. */
  readonly outcome: 'success' | ErrorClass;
  /**
   * A failure's code; for a call the MCP proxy refused itself: `LOOP_DETECTED` (the loop guard had stopped
   * it), `RATE_LIMITED`, `SECRET_DETECTED`, `TOOL_DEFINITION_CHANGED`.
   */
  readonly code?: ToolErrorCode | ProxyRefusalCode;
  /** How long the call took, attempts and retries included. */
  readonly durationMs: number;
  /** How many times the tool ran (0 for a call refused before it ran, or replayed). */
  readonly attempts: number;
  /** Attempts beyond the first. */
  readonly retries: number;
  /** True when the result is an earlier identical write's record (the tool did not run); `replayOf` is that call. */
  readonly replay: boolean;
  /** The call whose recorded result this call replayed. */
  readonly replayOf?: string;
  /** The call that ran and whose result this call shares. */
  readonly sharedWith?: string;
  /** A decision given on resume (a person's) approved the call or refused it. */
  readonly approval?: 'approved' | 'denied';
  /** Who gave that decision (the decision's `by`: a user id or name), as given; absent when it named nobody. */
  readonly decidedBy?: string;
  /** The reason a `decide` hook gave when the call was denied. */
  readonly denialReason?: string;
  /** The result broke the tool's output contract (whatever the policy did about it: `code` says when it failed the call). */
  readonly contractViolation?: true;
  /** The MCP proxy found secrets in the call: where, by which rules (never the secret), and what it did. */
  readonly secrets?: readonly AuditSecretFinding[];
  /** The MCP proxy let the call run with its tool's definition changed since it was pinned (`pins.onChange: "flag"`): the digest now. */
  readonly toolDefinitionChanged?: string;
}

/** The codes of the MCP proxy's own refusals, beyond the chain's. */
export type ProxyRefusalCode =
  | 'LOOP_DETECTED'
  | 'RATE_LIMITED'
  | 'SECRET_DETECTED'
  | 'TOOL_DEFINITION_CHANGED';

/** Secrets the MCP proxy found in one direction of a call. */
export interface AuditSecretFinding {
  /** In the arguments the model sent, or in the result the server returned. */
  readonly in: 'arguments' | 'result';
  /** The redaction rules that matched, by their marker's name (`key`, `jwt`, `secret`). */
  readonly rules: readonly string[];
  /** What the proxy did (`secrets` in its config). */
  readonly action: 'blocked' | 'redacted' | 'audited';
}

/**
 * The MCP proxy saw a tool's definition (description, schemas, annotations) differ from the one pinned at
 * its server's first `tools/list`, or approved such a change (`pins.approve`).
 */
export interface AuditToolDefinitionRecord
  extends Partial<Pick<AuditRunRecord, 'runId' | 'sessionId' | 'clientId'>> {
  readonly schemaVersion: typeof AUDIT_SCHEMA_VERSION;
  readonly kind: 'tool-definition';
  readonly at: string;
  readonly code: 'TOOL_DEFINITION_CHANGED';
  /** The server, as the proxy names it: its namespace, or its command or URL. */
  readonly server: string;
  /** The tool, as the client sees it. */
  readonly toolName: string;
  /** `refused`: withheld until approved; `flagged`: let through, audited; `approved`: its digest is in `pins.approve`. */
  readonly outcome: 'refused' | 'flagged' | 'approved';
  /** The definition's digest now: what `pins.approve` takes. */
  readonly digest: string;
  /** The digest pinned before. */
  readonly pinnedDigest: string;
}

/** One finished run (or one part of it, up to a pause or from a resume). */
export interface AuditRunRecord {
  /** The run's id (`outcome.runId`). */
  readonly runId: string;
  /** The session the run belongs to, when the caller gave one. */
  readonly sessionId?: string;
  /** The turn of that session, when the caller gave one. */
  readonly turnId?: string;
  /** Who the caller is, when the front door knows (the MCP proxy's HTTP front: the id of the client's key). */
  readonly clientId?: string;
  /** The record shape's version (`AUDIT_SCHEMA_VERSION`). */
  readonly schemaVersion: typeof AUDIT_SCHEMA_VERSION;
  /** A run's record. */
  readonly kind: 'run';
  /** When the record was made (ISO 8601). */
  readonly at: string;
  /** True when the run continued a saved state. */
  readonly resumed: boolean;
  /** How the run (or its part) ended. */
  readonly outcome: 'completed' | 'stopped' | 'interrupted';
  /** Why a stopped run stopped. */
  readonly stopReason?: StopReason;
  /** What a stopped run met: the limit, the loop, the condition or the error. */
  readonly evidence?: Extract<RunEvent, { type: 'run-end' }>['evidence'];
  /** The calls an interrupted run waits on for an approval. */
  readonly awaitingApproval?: Extract<RunEvent, { type: 'run-end' }>['awaiting'];
  /** Model calls the run made. */
  readonly roundTrips: number;
  /** The run's ceiling of model calls (`maxRoundTrips`), as its `run-start` gave it. */
  readonly maxRoundTrips?: number;
  /** Tool calls the run made. */
  readonly toolCalls: number;
  /** Tokens the run used. */
  readonly usage: LoopUsage;
}

/** One line of the audit log. */
export type AuditRecord = AuditCallRecord | AuditRunRecord | AuditToolDefinitionRecord;
