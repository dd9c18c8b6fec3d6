import { AUDIT_SCHEMA_VERSION, type AuditCallRecord } from '../../audit/audit-record.js';
import type { AuditSink } from '../../audit/audit-sink.js';
import { argumentsDigest } from '../../chain/arguments-digest.js';
import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../../core/defaults.js';
import type { LoopUsage } from '../../core/loop-outcome.js';
import { stopEvidenceSummary } from '../../core/stop-evidence-summary.js';
import { summarizeArguments } from '../../redact/redact.js';
import type { TurnVerdict } from './judge-answer.js';
import type { HistoryRound, WireCall } from './wire.js';

/** The ids a turn's records carry: the turn is what a run is to the loop. */
export interface TurnIds {
  /** The turn's run id: the same on every gateway instance (a digest of the session and the turn). */
  readonly runId: string;
  readonly sessionId: string;
  /** The turn's anchor. */
  readonly turnId: string;
}

type Stop = Extract<TurnVerdict, { kind: 'stop' }>;

/**
 * The gateway's audit records, the shapes `toolwarden report` reads: one call record per call the app ran
 * (its result came back in a request), one per call the gateway withheld from the app (`outcome: denied`,
 * the stop's code), and one run record per turn (completed, or stopped with its reason and evidence).
 * Arguments as their redacted summary and digest; never a result, never a key.
 */
export class GatewayAudit {
  constructor(
    private readonly sink: AuditSink,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The calls of rounds the app answered; `durationMs`: from the answer that asked, when known. */
  ran(ids: TurnIds, rounds: readonly HistoryRound[], durationMs: number): void {
    for (const round of rounds)
      for (const call of round.calls) {
        if (call.result === undefined) continue;
        this.sink.append({
          ...this.callBase(ids, call),
          outcome: call.result.isError ? 'invalid-input' : 'success',
          ...(call.result.isError ? { code: 'TOOL_ERROR' as const } : {}),
          durationMs,
          attempts: 1,
          retries: 0,
          replay: false,
        });
      }
  }

  /** The calls of an answer the app never saw: the turn stopped. */
  withheld(ids: TurnIds, calls: readonly WireCall[], stop: Stop, text: string): void {
    for (const call of calls)
      this.sink.append({
        ...this.callBase(ids, call),
        outcome: 'denied',
        code: stop.reason === 'LOOP_DETECTED' ? 'LOOP_DETECTED' : 'TOOL_CALL_LIMIT',
        durationMs: 0,
        attempts: 0,
        retries: 0,
        replay: false,
        denialReason: text,
      });
  }

  /** The turn's end: the model answered (`completed`), or the gateway stopped it. */
  turnEnd(
    ids: TurnIds,
    end: {
      readonly stop: Stop | undefined;
      readonly roundTrips: number;
      readonly maxRoundTrips: number;
      readonly toolCalls: number;
      readonly usage: LoopUsage;
    },
  ): void {
    const { stop } = end;
    this.sink.append({
      schemaVersion: AUDIT_SCHEMA_VERSION,
      kind: 'run',
      at: this.now().toISOString(),
      runId: ids.runId,
      sessionId: ids.sessionId,
      turnId: ids.turnId,
      resumed: false,
      outcome: stop === undefined ? 'completed' : 'stopped',
      ...(stop === undefined
        ? {}
        : { stopReason: stop.reason, evidence: stopEvidenceSummary(stop.evidence) }),
      roundTrips: end.roundTrips,
      maxRoundTrips: end.maxRoundTrips,
      toolCalls: end.toolCalls,
      usage: end.usage,
    });
  }

  private callBase(ids: TurnIds, call: WireCall) {
    return {
      schemaVersion: AUDIT_SCHEMA_VERSION,
      kind: 'call',
      at: this.now().toISOString(),
      runId: ids.runId,
      sessionId: ids.sessionId,
      turnId: ids.turnId,
      toolCallId: call.id,
      toolName: call.name,
      argumentsSummary: summarizeArguments(call.arguments, DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS),
      argumentsDigest: argumentsDigest(call.name, call.arguments),
    } satisfies Partial<AuditCallRecord>;
  }
}
