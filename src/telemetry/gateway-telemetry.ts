import type { TokenUsage } from '../core/model.js';

/** A call the gateway makes to the model provider, as its span records it. */
export interface GatewayChatCall {
  /** `gen_ai.provider.name` (`openai`, `anthropic`). */
  readonly provider: string;
  /** The model the request names. */
  readonly model: string | undefined;
  /** The conversation (`gen_ai.conversation.id`). */
  readonly sessionId: string;
  /** The provider's host. */
  readonly serverAddress: string;
  readonly stream: boolean;
  /** `answer`: the app's request; `final-answer`: the gateway's last, tools-off request of a stopped turn. */
  readonly purpose: 'answer' | 'final-answer';
}

/** How a provider call ended. */
export interface GatewayChatEnd {
  readonly status?: number;
  readonly finishReasons?: readonly string[];
  readonly usage?: TokenUsage;
  /** What failed: `timeout`, `connection`, `aborted`, or the provider's error status (`429`). */
  readonly error?: string;
  /** The stop the gateway made of this answer (`LOOP_DETECTED`): the app did not get its calls. */
  readonly stop?: string;
}

/**
 * What the gateway reports for telemetry (`toolwarden/otel`'s `otelGatewayTelemetry` makes OpenTelemetry
 * spans and metrics of it): a `chat` span per provider call, an `execute_tool` span per call the app ran
 * between two requests, and each turn's end.
 */
export interface GatewayTelemetry {
  /** A provider call starts; the function returned ends it. */
  chatCall(call: GatewayChatCall): (end: GatewayChatEnd) => void;
  /**
   * A round of calls the app ran: from the answer that asked (the gateway passed it) to the request that
   * brought their results.
   */
  toolRound(round: {
    readonly sessionId: string;
    readonly calls: readonly { readonly id: string; readonly name: string }[];
    readonly startMs: number;
    readonly endMs: number;
  }): void;
  /** A turn ended: the model answered, or the gateway stopped it. */
  turnEnd(turn: {
    readonly sessionId: string;
    readonly outcome: 'completed' | 'stopped';
    readonly reason?: string;
    readonly roundTrips: number;
    readonly toolCalls: number;
  }): void;
}
