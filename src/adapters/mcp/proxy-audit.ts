import { auditListener } from '../../audit/audit-listener.js';
import { AUDIT_SCHEMA_VERSION } from '../../audit/audit-record.js';
import type { AuditSink } from '../../audit/audit-sink.js';
import { argumentsDigest } from '../../chain/arguments-digest.js';
import { newCallId } from '../../chain/runtime.js';
import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../../core/defaults.js';
import type { ToolEvent, ToolEventListener } from '../../core/tool-event.js';
import { summarizeArguments } from '../../redact/redact.js';
import type { Refusal } from './proxy/call-decision.js';
import type { ScreenNote } from './proxy/proxy-screen.js';
import type { ProxiedCall } from './proxy/session-policy.js';

/** How a call that needed confirmation was let through or refused, for its audit record. */
export interface ConfirmationNote {
  readonly approval: 'approved' | 'denied';
  /** `user (MCP elicitation)`, or the config rule that let an unconfirmed call run. */
  readonly decidedBy: string;
}

// Who decided, as the audit records say it: kept beside the records, where the report reads them too.
export { DECIDED_BY_CONFIG, DECIDED_BY_USER } from '../../audit/proxy-decided-by.js';

/** One client session's audit: the chain's call records, and records of the calls the proxy refused itself. */
export interface SessionAudit {
  /**
   * The chain's `onEvent` for one call: its record carries the session's ids, the confirmation, if any, and
   * `toolName` when given (the name the client called).
   */
  listener(
    note: ConfirmationNote | undefined,
    toolName?: string,
    /** Read when the call's record is made: what the screen found (secrets, a flagged definition). */
    screen?: () => ScreenNote,
  ): ToolEventListener | undefined;
  /** A record of a call refused before the upstream (same shape as the chain's: `outcome: "denied"`, the code). */
  refused(call: ProxiedCall, refusal: Refusal, note: ConfirmationNote | undefined, screen?: ScreenNote): void;
}

/**
 * The audit of a session, as `auditListener` writes it: the session id is the records' `runId` and
 * `sessionId` (a session of the proxy is what a run is to the loop: its calls share the limits and the guard).
 */
export function createSessionAudit(
  given: AuditSink | undefined,
  sessionId: string,
  clientId?: string,
): SessionAudit {
  if (given === undefined) return { listener: () => undefined, refused: () => {} };
  const sink = clientId === undefined ? given : withClientId(given, clientId);
  const ids = { runId: sessionId, sessionId };
  // The chain's record of a call gets the screen's note on its way to the sink (the listener is synchronous).
  let screened: ScreenNote | undefined;
  const base = auditListener({
    append: (record) => sink.append(screened === undefined ? record : { ...record, ...screened }),
    flush: () => sink.flush(),
    close: () => sink.close(),
  });
  base({ type: 'run-start', ...ids, resumed: false, maxRoundTrips: 0 });
  const listen = (event: ToolEvent) => base(event);
  return {
    listener(note, toolName, screen) {
      // The chain knows a tool by its own name (`gh_echo`); the record says the client's (`gh.echo`).
      const named =
        toolName === undefined
          ? listen
          : (event: ToolEvent) => base(event.toolName === toolName ? event : { ...event, toolName });
      const noted =
        note === undefined
          ? named
          : (event: ToolEvent) => named(event.type === 'tool-call-end' ? { ...event, ...note } : event);
      if (screen === undefined) return noted;
      return (event: ToolEvent) => {
        if (event.type !== 'tool-call-end') return noted(event);
        screened = screen();
        try {
          noted(event);
        } finally {
          screened = undefined;
        }
      };
    },
    refused({ name, text }, refusal, note, screen) {
      sink.append({
        schemaVersion: AUDIT_SCHEMA_VERSION,
        kind: 'call',
        at: new Date().toISOString(),
        ...ids,
        toolCallId: newCallId(),
        toolName: name,
        argumentsSummary: summarizeArguments(text, DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS),
        argumentsDigest: argumentsDigest(name, text),
        outcome: 'denied',
        // The refusal's own code, LOOP_DETECTED included: the report counts refusals by it.
        code: refusal.code,
        durationMs: 0,
        attempts: 0,
        retries: 0,
        replay: false,
        ...(note === undefined ? {} : note),
        denialReason: refusal.text,
        ...screen,
      });
    },
  };
}

/** The sink with the client's id on every record it is given (records of the session's calls and runs). */
function withClientId(sink: AuditSink, clientId: string): AuditSink {
  return {
    append: (record) => sink.append({ ...record, clientId }),
    flush: () => sink.flush(),
    close: () => sink.close(),
  };
}
