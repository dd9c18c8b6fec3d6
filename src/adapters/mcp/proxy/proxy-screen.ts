import type { AuditSecretFinding } from '../../../audit/audit-record.js';
import type { Refusal } from './call-decision.js';
import type { ProxyCallToolResult } from './mcp-shapes.js';
import type { ProxyConfig } from './proxy-config-types.js';
import type { SecretAction, SecretActions, SecretsConfig } from './proxy-security-config.js';
import type { RateLimiter } from './rate-limiter.js';
import { refusalOf } from './refusal-text.js';
import { type SecretRule, scanArguments, scanResult } from './secret-scan.js';
import { type ProxiedCall, proxiedCall } from './session-policy.js';
import { matchesPattern } from './tool-pattern.js';
import type { ToolPins } from './tool-pins.js';

/** What a call's audit record gets from the screen: the secrets found, a flagged definition change. */
export interface ScreenNote {
  readonly secrets?: readonly AuditSecretFinding[];
  readonly toolDefinitionChanged?: string;
}

/** A call let in (its arguments maybe redacted), or refused; with what its audit record is to say. */
export type Admission =
  | { readonly kind: 'pass'; readonly call: ProxiedCall; readonly note: ScreenNote }
  | { readonly kind: 'refuse'; readonly refusal: Refusal; readonly note: ScreenNote };

/**
 * What the proxy checks on the wire around the session's policy: before it, the pins (a tool withheld for
 * its changed definition) and the secrets in the arguments; right before the call goes upstream, the
 * rate limits; after a successful result, the secrets in it.
 */
export interface ProxyScreen {
  admit(call: ProxiedCall): Admission;
  take(call: ProxiedCall, clientId: string | undefined): Promise<Refusal | undefined>;
  /** A successful result as the client is to get it: as it came, redacted, or refused; and its note. */
  deliver(call: ProxiedCall, result: ProxyCallToolResult): Delivery;
}

/** A result screened: passed (as it came, or redacted) or withheld; with what its audit record is to say. */
export type Delivery =
  | { readonly kind: 'pass'; readonly result: ProxyCallToolResult; readonly note: ScreenNote }
  | { readonly kind: 'refuse'; readonly refusal: Refusal; readonly note: ScreenNote };

/** The screen of a proxy's config, its pins and its rate limiter (shared by its sessions). */
export function createProxyScreen(options: {
  readonly config: Pick<ProxyConfig, 'secrets'>;
  readonly pins: ToolPins | undefined;
  readonly rateLimiter: RateLimiter | undefined;
}): ProxyScreen {
  const { config, pins, rateLimiter } = options;
  return {
    admit(call) {
      const withheld = pins?.refusal(call.name);
      if (withheld !== undefined) return { kind: 'refuse', refusal: withheld, note: {} };
      const changed = pins?.flagged(call.name);
      const flagged: ScreenNote = changed === undefined ? {} : { toolDefinitionChanged: changed };
      const action = secretActionsFor(call.name, config.secrets).arguments;
      if (action === 'off') return { kind: 'pass', call, note: flagged };
      const scan = scanArguments(call.text);
      if (scan.rules.length === 0) return { kind: 'pass', call, note: flagged };
      const note = { ...flagged, secrets: [finding('arguments', scan.rules, action)] };
      switch (action) {
        case 'block':
          return { kind: 'refuse', refusal: argumentsBlocked(call, scan.rules), note };
        case 'redact': {
          const args = jsonValue(scan.redacted);
          // Arguments that no longer read as JSON once redacted cannot be sent: refused as a block would be.
          if (args === undefined)
            return { kind: 'refuse', refusal: argumentsBlocked(call, scan.rules), note };
          return { kind: 'pass', call: proxiedCall(call.name, args.value), note };
        }
        case 'audit':
          return { kind: 'pass', call, note };
        default: {
          const never: never = action;
          return never;
        }
      }
    },
    take: (call, clientId) => rateLimiter?.take(call.name, clientId) ?? Promise.resolve(undefined),
    deliver(call, result) {
      const action = secretActionsFor(call.name, config.secrets).results;
      if (action === 'off') return { kind: 'pass', result, note: {} };
      let scan: ReturnType<typeof scanResult>;
      try {
        scan = scanResult(result);
      } catch {
        // Redacted structured content that no longer reads as JSON: nothing of it can be shown.
        scan = { redacted: result, rules: ['secret'] };
        if (action === 'redact') return blocked(call, scan.rules);
      }
      if (scan.rules.length === 0) return { kind: 'pass', result, note: {} };
      switch (action) {
        case 'block':
          return blocked(call, scan.rules);
        case 'redact':
          return {
            kind: 'pass',
            result: scan.redacted,
            note: { secrets: [finding('result', scan.rules, action)] },
          };
        case 'audit':
          return { kind: 'pass', result, note: { secrets: [finding('result', scan.rules, action)] } };
        default: {
          const never: never = action;
          return never;
        }
      }
    },
  };
}

function argumentsBlocked(call: ProxiedCall, rules: readonly SecretRule[]): Refusal {
  return refusalOf({ reason: 'secret-in-arguments', tool: call.name, rules });
}

function jsonValue(text: string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function blocked(call: ProxiedCall, rules: readonly SecretRule[]): Delivery {
  return {
    kind: 'refuse',
    refusal: refusalOf({ reason: 'secret-in-result', tool: call.name, rules }),
    note: { secrets: [finding('result', rules, 'block')] },
  };
}

/**
 * The secret actions of one tool: its own entry (an exact name wins, then the first pattern that matches)
 * over the proxy-wide ones; everything `off` when `secrets` is false.
 */
export function secretActionsFor(name: string, secrets: SecretsConfig | false): SecretActions {
  if (secrets === false) return { arguments: 'off', results: 'off' };
  let own = Object.hasOwn(secrets.tools, name) ? secrets.tools[name] : undefined;
  if (own === undefined) {
    for (const [pattern, entry] of Object.entries(secrets.tools)) {
      if (pattern.includes('*') && matchesPattern(pattern, name)) {
        own = entry;
        break;
      }
    }
  }
  return {
    arguments: own?.arguments ?? secrets.arguments,
    results: own?.results ?? secrets.results,
  };
}

function finding(
  where: AuditSecretFinding['in'],
  rules: readonly SecretRule[],
  action: Exclude<SecretAction, 'off'>,
): AuditSecretFinding {
  const done = action === 'block' ? 'blocked' : action === 'redact' ? 'redacted' : 'audited';
  return { in: where, rules, action: done };
}
