// What a gateway reports, kept for a test to read: audit records and telemetry calls.
import type { AuditRecord } from '../../../audit/audit-record.js';
import type { AuditSink } from '../../../audit/audit-sink.js';
import type {
  GatewayChatCall,
  GatewayChatEnd,
  GatewayTelemetry,
} from '../../../telemetry/gateway-telemetry.js';

export interface MemoryAuditSink extends AuditSink {
  readonly records: AuditRecord[];
}

export function memoryAuditSink(): MemoryAuditSink {
  const records: AuditRecord[] = [];
  return {
    records,
    append: (record) => void records.push(record),
    flush: async () => {},
    close: async () => {},
  };
}

export interface RecordedTelemetry extends GatewayTelemetry {
  readonly chats: { call: GatewayChatCall; end?: GatewayChatEnd }[];
  readonly rounds: Parameters<GatewayTelemetry['toolRound']>[0][];
  readonly turns: Parameters<GatewayTelemetry['turnEnd']>[0][];
}

export function recordTelemetry(): RecordedTelemetry {
  const chats: RecordedTelemetry['chats'] = [];
  const rounds: RecordedTelemetry['rounds'] = [];
  const turns: RecordedTelemetry['turns'] = [];
  return {
    chats,
    rounds,
    turns,
    chatCall(call) {
      const entry: { call: GatewayChatCall; end?: GatewayChatEnd } = { call };
      chats.push(entry);
      return (end) => {
        entry.end = end;
      };
    },
    toolRound: (round) => void rounds.push(round),
    turnEnd: (turn) => void turns.push(turn),
  };
}
