import {
  type Attributes,
  type Meter,
  metrics,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { GatewayTelemetry } from './gateway-telemetry.js';
import { OTEL_NAMES } from './otel-names.js';

const attr = OTEL_NAMES.attributes;

/** `otelGatewayTelemetry`'s tracer and meter. */
export interface OtelGatewayTelemetryOptions {
  /** Default: `trace.getTracer('toolwarden')` (a no-op until an SDK registers a provider). */
  readonly tracer?: Tracer;
  /** Default: `metrics.getMeter('toolwarden')`. */
  readonly meter?: Meter;
}

/**
 * The gateway's telemetry as OpenTelemetry, after the GenAI conventions: a `chat {model}` client span per
 * provider call (provider, model, conversation, finish reasons, tokens, the HTTP status, the gateway's
 * stop), an `execute_tool {tool}` span per call the app ran (its duration: from the answer that asked to
 * the request that answered), and per turn `toolwarden.run.round_trips` and `toolwarden.run.stops`. Never
 * content: no messages, arguments or results.
 */
export function otelGatewayTelemetry(options: OtelGatewayTelemetryOptions = {}): GatewayTelemetry {
  const tracer = options.tracer ?? trace.getTracer(OTEL_NAMES.instrumentation);
  const meter = options.meter ?? metrics.getMeter(OTEL_NAMES.instrumentation);
  const roundTrips = meter.createHistogram(OTEL_NAMES.metrics.runRoundTrips, {
    description: 'Model calls per run',
    unit: '{round_trip}',
    advice: { explicitBucketBoundaries: [...OTEL_NAMES.buckets.runRoundTrips] },
  });
  const stops = meter.createCounter(OTEL_NAMES.metrics.runStops, {
    description: 'Runs that stopped, by reason',
    unit: '{run}',
  });
  return {
    chatCall(call) {
      const attributes: Attributes = {
        [attr.operationName]: OTEL_NAMES.operations.chat,
        [attr.providerName]: call.provider,
        [attr.conversationId]: call.sessionId,
        [attr.serverAddress]: call.serverAddress,
        [attr.gatewayPurpose]: call.purpose,
      };
      if (call.model !== undefined) attributes[attr.requestModel] = call.model;
      const name =
        call.model === undefined ? OTEL_NAMES.operations.chat : `${OTEL_NAMES.operations.chat} ${call.model}`;
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
      return (end) => {
        if (end.status !== undefined) span.setAttribute(attr.httpStatus, end.status);
        if (end.finishReasons !== undefined)
          span.setAttribute(attr.responseFinishReasons, [...end.finishReasons]);
        if (end.usage !== undefined)
          span.setAttributes({
            [attr.usageInputTokens]: end.usage.inputTokens,
            [attr.usageOutputTokens]: end.usage.outputTokens,
          });
        if (end.stop !== undefined) span.setAttribute(attr.stopReason, end.stop);
        if (end.error !== undefined) {
          span.setAttribute(attr.errorType, end.error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: end.error });
        }
        span.end();
      };
    },
    toolRound(round) {
      for (const call of round.calls) {
        tracer
          .startSpan(`${OTEL_NAMES.operations.executeTool} ${call.name}`, {
            kind: SpanKind.INTERNAL,
            startTime: round.startMs,
            attributes: {
              [attr.operationName]: OTEL_NAMES.operations.executeTool,
              [attr.toolName]: call.name,
              [attr.toolCallId]: call.id,
              [attr.toolType]: OTEL_NAMES.values.toolTypeFunction,
              [attr.conversationId]: round.sessionId,
            },
          })
          .end(round.endMs);
      }
    },
    turnEnd(turn) {
      roundTrips.record(turn.roundTrips, { [attr.runOutcome]: turn.outcome });
      if (turn.outcome === 'stopped' && turn.reason !== undefined)
        stops.add(1, { [attr.stopReason]: turn.reason });
    },
  };
}
