import type { Store } from '../../core/store.js';
import type { CallReading, GuardCall } from '../../guard/guard-round.js';
import type { GuardConfig } from '../../guard/loop-guard.js';
import type { GatewayTelemetry } from '../../telemetry/gateway-telemetry.js';
import type { UpstreamKey } from './forward-headers.js';
import type { GatewayAudit } from './gateway-audit.js';
import type { GatewayPolicy } from './gateway-policy.js';
import type { Upstream, UpstreamRoute } from './upstream.js';

/** What every request of a gateway is served with: its policy, its provider, its store, audit and telemetry. */
export interface GatewayContext {
  readonly policy: GatewayPolicy;
  /** The loop guard's configuration (thresholds, hints); undefined when the guard is off. */
  readonly guardConfig: GuardConfig | undefined;
  /** How the guard reads a call under that configuration, remembering the calls it read; undefined when off. */
  readonly readCall: ((call: GuardCall) => CallReading) | undefined;
  /** The provider of the OpenAI wires (and of every path no other route claims), and the key sent to it. */
  readonly upstream: Upstream;
  readonly key: UpstreamKey | undefined;
  /** Anthropic Messages' provider, when the config names one apart (`upstream.anthropic`); else `upstream`. */
  readonly anthropic: UpstreamRoute | undefined;
  readonly store: Store;
  readonly audit: GatewayAudit | undefined;
  readonly telemetry: GatewayTelemetry | undefined;
  readonly maxRequestBytes: number;
  readonly maxResponseBytes: number;
  readonly timeoutMs: number;
  /** The request header that names the session (lower case). */
  readonly sessionHeader: string;
  /** The response header that says the turn was stopped. */
  readonly stopHeader: string;
  /** Request headers the gateway owns: never sent to the provider. */
  readonly owned: ReadonlySet<string>;
  /** Removes a tool result's secrets (remembering the results it found clean). */
  readonly redactText: (text: string) => string;
  /** A line for the operator (never a key, an argument or a result). */
  readonly log: (line: string) => void;
  /** Work that outlives a response (a store write): `close` waits for it. */
  readonly track: (work: Promise<unknown>) => void;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/** Where a request goes: Anthropic's wire (and its other paths) to its own provider when there is one. */
export function routeOf(context: GatewayContext, provider: string): UpstreamRoute {
  if (provider === 'anthropic' && context.anthropic !== undefined) return context.anthropic;
  return { upstream: context.upstream, key: context.key };
}
