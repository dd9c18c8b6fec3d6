import { createHash } from 'node:crypto';
import type { AuditSink } from '../../../audit/audit-sink.js';
import type { Store } from '../../../core/store.js';
import { namespaceOf } from './namespace-tools.js';
import type { ProxyConfig } from './proxy-config-types.js';
import { createProxyScreen, type ProxyScreen } from './proxy-screen.js';
import { createRateLimiter } from './rate-limiter.js';
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
  return { screen: createProxyScreen({ config, pins, rateLimiter }), pins };
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
