// toolwarden/otel: OpenTelemetry spans and metrics for runs and tool calls, after the GenAI semantic
// conventions, through @opentelemetry/api (an optional peer dependency: install it beside toolwarden).

export type { GatewayChatCall, GatewayChatEnd, GatewayTelemetry } from './gateway-telemetry.js';
export { type OtelGatewayTelemetryOptions, otelGatewayTelemetry } from './otel-gateway-telemetry.js';
export {
  type OtelInstrumentation,
  type OtelInstrumentationOptions,
  otelInstrumentation,
} from './otel-instrumentation.js';
export { OTEL_NAMES } from './otel-names.js';
