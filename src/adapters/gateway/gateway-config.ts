import {
  DEFAULT_GATEWAY_HOST,
  DEFAULT_GATEWAY_MAX_REQUEST_BYTES,
  DEFAULT_GATEWAY_MAX_RESPONSE_BYTES,
  DEFAULT_GATEWAY_ON_STOP,
  DEFAULT_GATEWAY_PORT,
  DEFAULT_GATEWAY_REDACT_ARGUMENTS,
  DEFAULT_GATEWAY_REDACT_TOOL_RESULTS,
  DEFAULT_GATEWAY_UPSTREAM_TIMEOUT_MS,
  DEFAULT_MAX_CALLS_PER_TOOL,
  DEFAULT_MAX_CALLS_PER_TURN,
  DEFAULT_MAX_ROUND_TRIPS,
  MAX_GATEWAY_CONFIG_BYTES,
} from '../../core/defaults.js';
import type { GuardOptions } from '../../guard/guard-options.js';
import { ConfigReader, describe, oneKeyObject } from '../../options/config-reader.js';
import { readGuardConfig } from '../../run/read-guard-config.js';
import { TOOL_EFFECTS, type ToolEffect } from '../../tools/tool-effect.js';
import { GatewayConfigError } from './gateway-config-error.js';

/**
 * `toolwarden gateway --config gateway.json`, resolved: every default filled in. docs/gateway.md documents
 * each key. The provider's key is never in the file: `upstream.apiKeyEnv` names the variable it is read from.
 */
export interface GatewayConfig {
  /** Where the gateway listens (default 127.0.0.1:8787). */
  readonly listen: { readonly host: string; readonly port: number };
  /** The provider, and where its key comes from. */
  readonly upstream: {
    /** The provider's base URL (`https://api.openai.com`). */
    readonly url: string;
    /** The environment variable holding the key the gateway sends; undefined: the app's own key passes through. */
    readonly apiKeyEnv: string | undefined;
    /** The header that carries it: `authorization` (as `Bearer <key>`) or one that takes the key as it is. */
    readonly apiKeyHeader: string;
    /**
     * Anthropic Messages' provider, when it is not `url` (`https://api.anthropic.com`): its URL, the variable
     * of its key, and the header that carries it (default `x-api-key`). Undefined: Anthropic's requests go to `url`.
     */
    readonly anthropic?: {
      readonly url: string;
      readonly apiKeyEnv: string | undefined;
      readonly apiKeyHeader: string;
    };
  };
  /** Per turn (from the last user message): calls per tool and in all, model calls. */
  readonly limits: {
    readonly perTool: number;
    readonly total: number;
    readonly roundTrips: number;
    readonly tools: Readonly<Record<string, number>>;
  };
  /** The loop guard's thresholds, `nudge` and per-tool `hints` (every default filled in), or false. */
  readonly loopGuard: Required<GuardOptions> | false;
  /** What each tool does, by name (undescribed: `unknown`). */
  readonly tools: Readonly<Record<string, { readonly effect: ToolEffect }>>;
  /** Secrets removed from tool results (default on) and from the model's arguments (default off). */
  readonly redact: { readonly toolResults: boolean; readonly arguments: boolean };
  /** A stopped turn ends with the model's answer with tools off, or the gateway's message at once. */
  readonly onStop: 'final-answer' | 'synthesize';
  /** Where each session's record is kept: this process, a SQLite file, or Redis (shared by every instance). */
  readonly store:
    | { readonly kind: 'memory' }
    | { readonly kind: 'sqlite'; readonly path: string }
    | { readonly kind: 'redis'; readonly url: string };
  /** Where the audit log is written, or false. */
  readonly audit:
    | { readonly kind: 'jsonl'; readonly path: string }
    | { readonly kind: 'sqlite'; readonly path: string }
    | false;
  /** OpenTelemetry spans and metrics (`@opentelemetry/api` installed beside toolwarden, and an SDK). */
  readonly telemetry: boolean;
  /** The provider must start answering, and then send each next piece, within this. */
  readonly timeoutMs: number;
  /** A guarded request's body, at most (413 over it). */
  readonly maxRequestBytes: number;
  /** A whole answer, and the calls of a streamed one held at once, at most. */
  readonly maxResponseBytes: number;
}

const TOP_KEYS = [
  '$schema',
  'listen',
  'upstream',
  'limits',
  'loopGuard',
  'tools',
  'redact',
  'onStop',
  'store',
  'audit',
  'telemetry',
  'timeoutMs',
  'maxRequestBytes',
  'maxResponseBytes',
] as const;

/** File paths and URLs: long enough for any real one. */
const MAX_PATH_CHARS = 4096;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
const HEADER_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Checks a parsed config file and fills in the defaults. Throws `GatewayConfigError` listing every problem
 * with its JSON path and a "did you mean" for a key close to a known one.
 */
export function parseGatewayConfig(json: unknown, source: string): GatewayConfig {
  const reader = new ConfigReader();
  const config = readConfig(json, reader);
  if (config === undefined || reader.problems.length > 0)
    throw new GatewayConfigError({ source, problems: reader.problems, omitted: reader.omitted });
  return config;
}

/** `parseGatewayConfig` over the file's text: refused unread when too large; text that is not JSON is an error too. */
export function parseGatewayConfigText(text: string, source: string): GatewayConfig {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_GATEWAY_CONFIG_BYTES) {
    const message = `the file is ${bytes} bytes; a config file is at most ${MAX_GATEWAY_CONFIG_BYTES}`;
    throw new GatewayConfigError({ source, problems: [{ path: '$', message }] });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : 'unreadable';
    throw new GatewayConfigError({ source, problems: [{ path: '$', message: `is not JSON: ${reason}` }] });
  }
  return parseGatewayConfig(json, source);
}

/**
 * The key the config names, read from `env`; undefined when the config names none (the app's key passes
 * through). A variable that is not set (or is empty) is a `GatewayConfigError`: a gateway that would send
 * no key is not started. The key itself is never in a message.
 */
export function upstreamKeyOf(
  config: GatewayConfig,
  env: Readonly<Record<string, string | undefined>>,
  source: string,
  /** Which provider's key: the main one (default), or `upstream.anthropic`'s. */
  provider: 'main' | 'anthropic' = 'main',
): { readonly header: string; readonly value: string } | undefined {
  const upstream = provider === 'main' ? config.upstream : config.upstream.anthropic;
  const name = upstream?.apiKeyEnv;
  if (upstream === undefined || name === undefined) return undefined;
  const value = env[name];
  const path = provider === 'main' ? '$.upstream.apiKeyEnv' : '$.upstream.anthropic.apiKeyEnv';
  if (value === undefined || value.trim() === '')
    throw new GatewayConfigError({
      source,
      problems: [{ path, message: `names ${name}, which is not set in the environment` }],
    });
  return { header: upstream.apiKeyHeader, value: value.trim() };
}

function readConfig(json: unknown, reader: ConfigReader): GatewayConfig | undefined {
  const top = reader.object(json, '$', TOP_KEYS);
  if (top === undefined) return undefined;
  if (top.$schema !== undefined) reader.string(top.$schema, '$.$schema', 2048);
  const count = (key: 'timeoutMs' | 'maxRequestBytes' | 'maxResponseBytes', fallback: number) =>
    top[key] === undefined
      ? fallback
      : (reader.number(top[key], `$.${key}`, { min: 1, timer: key === 'timeoutMs' }) ?? fallback);
  const upstream = readUpstream(top.upstream, reader);
  // Every section is read, so every problem is listed, before a missing provider ends it.
  const config = {
    listen: readListen(top.listen, reader),
    limits: readLimits(top.limits, reader),
    loopGuard: readGuardConfig(top.loopGuard, reader, '$.loopGuard'),
    tools:
      top.tools === undefined
        ? {}
        : (reader.map(top.tools, '$.tools', (entry, path) => readTool(entry, path, reader)) ?? {}),
    redact: readRedact(top.redact, reader),
    onStop:
      top.onStop === undefined
        ? DEFAULT_GATEWAY_ON_STOP
        : (reader.oneOf(top.onStop, '$.onStop', ['final-answer', 'synthesize']) ?? DEFAULT_GATEWAY_ON_STOP),
    store: readStore(top.store, reader),
    audit: readAudit(top.audit, reader),
    telemetry: top.telemetry === undefined ? false : (reader.boolean(top.telemetry, '$.telemetry') ?? false),
    timeoutMs: count('timeoutMs', DEFAULT_GATEWAY_UPSTREAM_TIMEOUT_MS),
    maxRequestBytes: count('maxRequestBytes', DEFAULT_GATEWAY_MAX_REQUEST_BYTES),
    maxResponseBytes: count('maxResponseBytes', DEFAULT_GATEWAY_MAX_RESPONSE_BYTES),
  };
  return upstream === undefined ? undefined : { ...config, upstream };
}

function readListen(value: unknown, reader: ConfigReader): GatewayConfig['listen'] {
  const fallback = { host: DEFAULT_GATEWAY_HOST, port: DEFAULT_GATEWAY_PORT };
  if (value === undefined) return fallback;
  const listen = reader.object(value, '$.listen', ['host', 'port']);
  if (listen === undefined) return fallback;
  return {
    host:
      listen.host === undefined
        ? fallback.host
        : (reader.string(listen.host, '$.listen.host', 255) ?? fallback.host),
    port:
      listen.port === undefined
        ? fallback.port
        : (reader.number(listen.port, '$.listen.port', { min: 0, max: 65_535 }) ?? fallback.port),
  };
}

/** `upstream` is required: a gateway without a provider has nothing to guard. */
function readUpstream(value: unknown, reader: ConfigReader): GatewayConfig['upstream'] | undefined {
  if (value === undefined) {
    reader.problem('$.upstream', 'is required: { "url": "https://api.openai.com" }');
    return undefined;
  }
  const upstream = reader.object(value, '$.upstream', ['url', 'apiKeyEnv', 'apiKeyHeader', 'anthropic']);
  if (upstream === undefined) return undefined;
  const main = readProvider(upstream, '$.upstream', 'authorization', reader);
  if (upstream.anthropic === undefined) return main;
  const fields = reader.object(upstream.anthropic, '$.upstream.anthropic', [
    'url',
    'apiKeyEnv',
    'apiKeyHeader',
  ]);
  if (fields === undefined) return undefined;
  if (fields.url === undefined) {
    reader.problem('$.upstream.anthropic.url', 'is required: "https://api.anthropic.com"');
    return undefined;
  }
  const anthropic = readProvider(fields, '$.upstream.anthropic', 'x-api-key', reader);
  return main === undefined || anthropic === undefined ? undefined : { ...main, anthropic };
}

/** A provider's `url`, `apiKeyEnv` and `apiKeyHeader`, at `path`. */
function readProvider(
  fields: Record<string, unknown>,
  path: string,
  defaultHeader: string,
  reader: ConfigReader,
): { url: string; apiKeyEnv: string | undefined; apiKeyHeader: string } | undefined {
  const url = readUrl(fields.url, `${path}.url`, reader);
  let apiKeyEnv: string | undefined;
  if (fields.apiKeyEnv !== undefined) {
    if (typeof fields.apiKeyEnv === 'string' && ENV_NAME.test(fields.apiKeyEnv)) apiKeyEnv = fields.apiKeyEnv;
    else
      reader.problem(
        `${path}.apiKeyEnv`,
        `must be an environment variable's name (letters, digits and _, not starting with a digit), got ${describe(fields.apiKeyEnv)}`,
      );
  }
  let apiKeyHeader = defaultHeader;
  if (fields.apiKeyHeader !== undefined) {
    const header = typeof fields.apiKeyHeader === 'string' ? fields.apiKeyHeader.toLowerCase() : undefined;
    if (header !== undefined && HEADER_NAME.test(header)) apiKeyHeader = header;
    else
      reader.problem(
        `${path}.apiKeyHeader`,
        `must be a header name (authorization, x-api-key), got ${describe(fields.apiKeyHeader)}`,
      );
  }
  return url === undefined ? undefined : { url, apiKeyEnv, apiKeyHeader };
}

function readUrl(value: unknown, path: string, reader: ConfigReader): string | undefined {
  const text = reader.string(value, path, MAX_PATH_CHARS);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    reader.problem(path, `must be an http:// or https:// URL, got ${describe(text)}`);
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    reader.problem(path, `must be an http:// or https:// URL, got ${describe(text)}`);
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    reader.problem(
      path,
      'must be a base URL without credentials, query or fragment (the key goes in apiKeyEnv)',
    );
    return undefined;
  }
  return text;
}

function readLimits(value: unknown, reader: ConfigReader): GatewayConfig['limits'] {
  const fallback = {
    perTool: DEFAULT_MAX_CALLS_PER_TOOL,
    total: DEFAULT_MAX_CALLS_PER_TURN,
    roundTrips: DEFAULT_MAX_ROUND_TRIPS,
    tools: {},
  };
  if (value === undefined) return fallback;
  const limits = reader.object(value, '$.limits', ['perTool', 'total', 'roundTrips', 'tools']);
  if (limits === undefined) return fallback;
  const count = (entry: unknown, path: string) => reader.number(entry, path, { min: 1 });
  const one = (key: 'perTool' | 'total' | 'roundTrips') =>
    limits[key] === undefined ? fallback[key] : (count(limits[key], `$.limits.${key}`) ?? fallback[key]);
  return {
    perTool: one('perTool'),
    total: one('total'),
    roundTrips: one('roundTrips'),
    tools: limits.tools === undefined ? {} : (reader.map(limits.tools, '$.limits.tools', count) ?? {}),
  };
}

function readTool(
  entry: unknown,
  path: string,
  reader: ConfigReader,
): { readonly effect: ToolEffect } | undefined {
  const tool = reader.object(entry, path, ['effect']);
  if (tool === undefined) return undefined;
  if (tool.effect === undefined) {
    reader.problem(path, `needs "effect": ${TOOL_EFFECTS.map((effect) => `"${effect}"`).join(', ')}`);
    return undefined;
  }
  const effect = reader.oneOf(tool.effect, `${path}.effect`, TOOL_EFFECTS);
  return effect === undefined ? undefined : { effect };
}

function readRedact(value: unknown, reader: ConfigReader): GatewayConfig['redact'] {
  const fallback = {
    toolResults: DEFAULT_GATEWAY_REDACT_TOOL_RESULTS,
    arguments: DEFAULT_GATEWAY_REDACT_ARGUMENTS,
  };
  if (value === undefined) return fallback;
  const redact = reader.object(value, '$.redact', ['toolResults', 'arguments']);
  if (redact === undefined) return fallback;
  const flag = (key: 'toolResults' | 'arguments') =>
    redact[key] === undefined
      ? fallback[key]
      : (reader.boolean(redact[key], `$.redact.${key}`) ?? fallback[key]);
  return { toolResults: flag('toolResults'), arguments: flag('arguments') };
}

/** `"memory"` (default), `{ "sqlite": "<file>" }` or `{ "redis": "redis://…" }`. */
function readStore(value: unknown, reader: ConfigReader): GatewayConfig['store'] {
  const fallback = { kind: 'memory' } as const;
  if (value === undefined || value === 'memory') return fallback;
  if (typeof value === 'string') {
    reader.problem(
      '$.store',
      `must be "memory", { "sqlite": "<file>" } or { "redis": "<url>" }, got ${describe(value)}`,
    );
    return fallback;
  }
  const store = oneKeyObject(value, '$.store', ['sqlite', 'redis'], reader);
  if (store === undefined) return fallback;
  const text = reader.string(store.value, `$.store.${store.key}`, MAX_PATH_CHARS);
  if (text === undefined) return fallback;
  if (store.key === 'sqlite') return { kind: 'sqlite', path: text };
  if (!/^rediss?:\/\//.test(text)) {
    reader.problem('$.store.redis', 'must be a redis:// or rediss:// URL');
    return fallback;
  }
  return { kind: 'redis', url: text };
}

/** `false` (default), `{ "jsonl": "<file>" }` or `{ "sqlite": "<file>" }`. */
function readAudit(value: unknown, reader: ConfigReader): GatewayConfig['audit'] {
  if (value === undefined || value === false) return false;
  const audit = oneKeyObject(value, '$.audit', ['jsonl', 'sqlite'], reader);
  if (audit === undefined) return false;
  const file = reader.string(audit.value, `$.audit.${audit.key}`, MAX_PATH_CHARS);
  return file === undefined ? false : { kind: audit.key, path: file };
}
