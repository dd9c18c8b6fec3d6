import type { RunEvent } from '../core/run-event.js';
import {
  AUDIT_SCHEMA_VERSION,
  type AuditCallRecord,
  type AuditRecord,
  type AuditRunIds,
  type AuditRunRecord,
} from './audit-record.js';

/** What a record needs beyond its event: the run it belongs to and the time. */
export interface AuditContext {
  /** The ids of the current run (from its `run-start`); absent for calls outside a run (`executeToolCalls`). */
  readonly run?: (AuditRunIds & { readonly resumed?: boolean; readonly maxRoundTrips?: number }) | undefined;
  /** The call had a `contract-warn` event before its end. */
  readonly contractViolation?: boolean | undefined;
  /** ISO 8601. */
  readonly at: string;
}

/**
 * The audit record of an event: a call record for `tool-call-end`, a run record for `run-end`, nothing for
 * the other events. Only the events' safe fields are copied, so an event that carries content
 * (`includeContent: true`) gives the same record as one that does not.
 */
export function auditRecordOf(event: RunEvent, context: AuditContext): AuditRecord | undefined {
  switch (event.type) {
    case 'tool-call-end':
      return auditCallRecord(event, context);
    case 'run-end':
      return auditRunRecord(event, context);
    default:
      return undefined;
  }
}

/** The record of a finished call. */
export function auditCallRecord(
  event: Extract<RunEvent, { type: 'tool-call-end' }>,
  context: AuditContext,
): AuditCallRecord {
  const ids = context.run;
  return {
    schemaVersion: AUDIT_SCHEMA_VERSION,
    kind: 'call',
    at: context.at,
    ...(ids === undefined ? {} : runIds(ids)),
    toolCallId: event.toolCallId,
    toolName: event.toolName,
    argumentsSummary: event.argumentsSummary,
    argumentsDigest: event.identity.digest,
    outcome: event.outcome,
    ...(event.code === undefined ? {} : { code: event.code }),
    durationMs: event.durationMs,
    attempts: event.attempts,
    retries: Math.max(0, event.attempts - 1),
    replay: event.replayOf !== undefined,
    ...(event.replayOf === undefined ? {} : { replayOf: event.replayOf }),
    ...(event.sharedWith === undefined ? {} : { sharedWith: event.sharedWith }),
    ...(event.approval === undefined ? {} : { approval: event.approval }),
    ...(event.decidedBy === undefined ? {} : { decidedBy: event.decidedBy }),
    ...(event.denialReason === undefined ? {} : { denialReason: event.denialReason }),
    ...(context.contractViolation === true ? { contractViolation: true } : {}),
  };
}

/** The record of a finished run. */
export function auditRunRecord(
  event: Extract<RunEvent, { type: 'run-end' }>,
  context: AuditContext,
): AuditRunRecord {
  const ids = context.run;
  return {
    schemaVersion: AUDIT_SCHEMA_VERSION,
    kind: 'run',
    at: context.at,
    ...(ids === undefined ? {} : runIds(ids)),
    runId: event.runId,
    resumed: ids?.resumed ?? false,
    outcome: event.outcome,
    ...(event.reason === undefined ? {} : { stopReason: event.reason }),
    ...(event.evidence === undefined ? {} : { evidence: event.evidence }),
    ...(event.awaiting === undefined ? {} : { awaitingApproval: event.awaiting }),
    roundTrips: event.roundTrips,
    ...(ids?.maxRoundTrips === undefined ? {} : { maxRoundTrips: ids.maxRoundTrips }),
    toolCalls: event.toolCalls,
    usage: {
      inputTokens: event.usage.inputTokens,
      outputTokens: event.usage.outputTokens,
      totalTokens: event.usage.totalTokens,
    },
  };
}

function runIds(ids: AuditRunIds): AuditRunIds {
  return {
    runId: ids.runId,
    ...(ids.sessionId === undefined ? {} : { sessionId: ids.sessionId }),
    ...(ids.turnId === undefined ? {} : { turnId: ids.turnId }),
  };
}
