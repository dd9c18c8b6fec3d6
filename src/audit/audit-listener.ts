import type { RunEvent } from '../core/run-event.js';
import type { AuditRunIds } from './audit-record.js';
import { auditCallRecord, auditRunRecord } from './audit-record-of.js';
import type { AuditSink } from './audit-sink.js';

/** Options of `auditListener`. */
export interface AuditListenerOptions {
  /** The records' time; default the system clock. */
  readonly now?: () => Date;
}

/** The system clock as ISO 8601, formatted once per millisecond (a formatting costs more than a call's audit). */
function systemClock(): () => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return () => {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}

/**
 * An `onEvent` listener that appends one record per finished call and one per run to `sink`. It keeps the
 * ids of the last `run-start` for the calls that follow, so give each run running at the same time its own
 * listener (they may share the sink). An output contract violation (its `contract-warn` event, which comes
 * before the call's end) goes on the record made at its end.
 */
export function auditListener(
  sink: AuditSink,
  options: AuditListenerOptions = {},
): (event: RunEvent) => void {
  const { now } = options;
  const clock = now === undefined ? systemClock() : () => now().toISOString();
  let run: (AuditRunIds & { readonly resumed: boolean; readonly maxRoundTrips: number }) | undefined;
  const violations = new Set<string>();
  return (event: RunEvent) => {
    switch (event.type) {
      case 'run-start':
        run = {
          runId: event.runId,
          ...(event.sessionId === undefined ? {} : { sessionId: event.sessionId }),
          ...(event.turnId === undefined ? {} : { turnId: event.turnId }),
          resumed: event.resumed,
          maxRoundTrips: event.maxRoundTrips,
        };
        return;
      case 'contract-warn':
        violations.add(event.toolCallId);
        return;
      case 'tool-call-end': {
        const contractViolation = violations.delete(event.toolCallId);
        sink.append(auditCallRecord(event, { at: clock(), run, contractViolation }));
        return;
      }
      case 'run-end':
        sink.append(auditRunRecord(event, { at: clock(), run }));
        run = undefined;
        return;
      default:
        return;
    }
  };
}
