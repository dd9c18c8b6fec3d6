import { createHash } from 'node:crypto';
import type { AuditSink } from '../../../audit/audit-sink.js';
import type { Store } from '../../../core/store.js';
import { namespaceOf } from './namespace-tools.js';
import type { ProxyConfig } from './proxy-config-types.js';
import { createProxyScreen, type ProxyScreen, type ScreenNote } from './proxy-screen.js';
import { ANONYMOUS_CLIENT, createRateLimiter } from './rate-limiter.js';
import { createToolPins, type ToolPins } from './tool-pins.js';

/**
 * A proxy's screen from its config: the pins (unless `pins: false`) and the rate limiter (when
 * `rateLimits` sets one) over the proxy's store, so proxies sharing a store share both.
 */
export function proxyScreen(
  config: ProxyConfig,
  resources: { readonly store: Store; readonly audit: AuditSink | undefined },
  /** The one upstream given on the command line, or undefined for the config's `servers`. */
  upstream:
    | { readonly url: string }
    | { readonly command: string; readonly args?: readonly string[] }
    | undefined,
  log: (line: string) => void,
): { readonly screen: ProxyScreen; readonly pins: ToolPins | undefined } {
  const single = upstream === undefined ? undefined : singleServerName(upstream);
  const serverOf = (name: string) =>
    single ?? namespaceOf(name, config.namespaceSeparator) ?? '(no namespace)';
  const pins =
    config.pins === false
      ? undefined
      : createToolPins({
          config: config.pins,
          store: resources.store,
          serverOf,
          audit: resources.audit,
          log,
        });
  const { perClient, tools } = config.rateLimits;
  const rateLimiter =
    perClient === undefined && Object.keys(tools).length === 0
      ? undefined
      : createRateLimiter({ config: config.rateLimits, store: resources.store });
  const screen = createProxyScreen({ config, pins, rateLimiter });
  return { screen: toldToOperator(screen, log), pins };
}

/** Entries of what the operator was told, at most: a hostile client cannot grow them without bound. */
const MAX_TOLD = 10_000;

/**
 * The screen, its refusals said on the operator's log too (the audit has each one): a rate limit once per
 * client, limit and window; a secret once per tool, direction and rules for the proxy's life.
 */
function toldToOperator(screen: ProxyScreen, log: (line: string) => void): ProxyScreen {
  const limited = new Map<string, number>();
  const secrets = new Set<string>();
  const tellSecrets = (tool: string, note: ScreenNote) => {
    for (const found of note.secrets ?? []) {
      const key = `${tool}\u0000${found.in}\u0000${found.rules.join(',')}\u0000${found.action}`;
      if (secrets.has(key)) continue;
      if (secrets.size >= MAX_TOLD) secrets.clear();
      secrets.add(key);
      log(
        `secret in the ${found.in === 'result' ? 'result' : 'arguments'} of ${tool} (rule: ${found.rules.join(', ')}): ${found.action}; "secrets" in the config sets what it does (said once per tool)`,
      );
    }
  };
  return {
    admit(call) {
      const admission = screen.admit(call);
      tellSecrets(call.name, admission.note);
      return admission;
    },
    async take(call, clientId) {
      const refusal = await screen.take(call, clientId);
      if (refusal?.retryAfterMs === undefined) return refusal;
      // The limit's words without the seconds: one line per client and limit until its window ends.
      const limit = refusal.text.replace(/; try again in \d+ s\.$/, '');
      const key = `${clientId ?? ANONYMOUS_CLIENT}\u0000${limit}`;
      const now = Date.now();
      if ((limited.get(key) ?? 0) <= now) {
        if (limited.size >= MAX_TOLD) limited.clear();
        limited.set(key, now + refusal.retryAfterMs);
        const until = new Date(now + refusal.retryAfterMs).toISOString();
        log(
          `client ${clientId ?? ANONYMOUS_CLIENT}: ${limit.replace(/^RATE_LIMITED: /, '')}; its calls are refused until ${until}`,
        );
      }
      return refusal;
    },
    deliver(call, result) {
      const delivery = screen.deliver(call, result);
      tellSecrets(call.name, delivery.note);
      return delivery;
    },
  };
}

/**
 * The name of the one upstream in the store's pin key, the audit and the log: a URL's origin and path (no
 * credentials, no query), or the command's last path segment and a digest of the whole command line (an
 * argument may hold a token; another command line is another server).
 */
export function singleServerName(
  upstream: { readonly url: string } | { readonly command: string; readonly args?: readonly string[] },
): string {
  if ('url' in upstream) {
    try {
      const url = new URL(upstream.url);
      return `${url.origin}${url.pathname}`;
    } catch {
      return digestName('url', upstream.url);
    }
  }
  const base = upstream.command.split(/[\\/]/).at(-1) || 'server';
  return digestName(base, JSON.stringify([upstream.command, ...(upstream.args ?? [])]));
}

function digestName(label: string, text: string): string {
  return `${label}#${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}
