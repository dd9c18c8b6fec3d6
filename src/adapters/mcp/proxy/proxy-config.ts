import { MAX_PROXY_CONFIG_BYTES } from '../../../core/defaults.js';
import { ConfigReader } from '../../../options/config-reader.js';
import { ProxyConfigError } from './proxy-config-error.js';
import type { ProxyConfig } from './proxy-config-types.js';
import { readSections } from './read-proxy-sections.js';

export type { NamespaceSeparator } from './namespace-tools.js';
export type {
  AuditConfig,
  ClientKeySource,
  ConfirmConfig,
  HeaderValue,
  OutputContract,
  OutputContractMode,
  ProxyAuthConfig,
  ProxyConfig,
  StoreConfig,
  UpstreamEnv,
  UpstreamServer,
} from './proxy-config-types.js';

/**
 * Checks a parsed config file and fills in the defaults. Throws `ProxyConfigError` listing every problem
 * with its JSON path (`$.limits.perTool: must be an integer >= 1, got -1`) and a "did you mean" for an
 * unknown key close to a known one. `source` names the file in the message.
 */
export function parseProxyConfig(json: unknown, source: string): ProxyConfig {
  const reader = new ConfigReader();
  const config = readSections(json, reader);
  if (config === undefined || reader.problems.length > 0) {
    throw new ProxyConfigError({ source, problems: reader.problems, omitted: reader.omitted });
  }
  return config;
}

/**
 * `parseProxyConfig` over the file's text: refused unread above `MAX_PROXY_CONFIG_BYTES`, and text that is
 * not JSON is a `ProxyConfigError` too (with the parser's position), so the command has one error to show.
 */
export function parseProxyConfigText(text: string, source: string): ProxyConfig {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_PROXY_CONFIG_BYTES) {
    const message = `the file is ${bytes} bytes; a config file is at most ${MAX_PROXY_CONFIG_BYTES}`;
    throw new ProxyConfigError({ source, problems: [{ path: '$', message }] });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : 'unreadable';
    throw new ProxyConfigError({ source, problems: [{ path: '$', message: `is not JSON: ${reason}` }] });
  }
  return parseProxyConfig(json, source);
}
