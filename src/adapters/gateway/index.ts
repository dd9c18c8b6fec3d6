// toolwarden/gateway: the guard on the model wire. An HTTP server (or a handler in yours) in front of a
// model provider, for an app in any language: it rebuilds each conversation's tool rounds from the
// requests, judges every answer with the loop's guard and limits before the app sees its calls, and
// removes secrets from tool results before the provider reads them (docs/gateway.md).

export type { GatewayTelemetry } from '../../telemetry/gateway-telemetry.js';
export { createGateway } from './create-gateway.js';
export {
  type GatewayConfig,
  parseGatewayConfig,
  parseGatewayConfigText,
  upstreamKeyOf,
} from './gateway-config.js';
export { GatewayConfigError } from './gateway-config-error.js';
export type { Gateway, GatewayOptions } from './gateway-options.js';
