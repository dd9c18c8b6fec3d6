import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_GATEWAY_HOST,
  DEFAULT_GATEWAY_MAX_REQUEST_BYTES,
  DEFAULT_GATEWAY_MAX_RESPONSE_BYTES,
  DEFAULT_GATEWAY_ON_STOP,
  DEFAULT_GATEWAY_PORT,
  DEFAULT_GATEWAY_REDACT_ARGUMENTS,
  DEFAULT_GATEWAY_REDACT_TOOL_RESULTS,
  DEFAULT_GATEWAY_SESSION_HEADER,
  DEFAULT_GATEWAY_STOP_HEADER,
  DEFAULT_GATEWAY_TOOL_EFFECT,
  DEFAULT_GATEWAY_UPSTREAM_TIMEOUT_MS,
  DEFAULT_MAX_CALLS_PER_TOOL,
  DEFAULT_MAX_CALLS_PER_TURN,
  DEFAULT_MAX_ROUND_TRIPS,
  MAX_GATEWAY_CLEAN_TEXT_CHARS,
  MAX_GATEWAY_READ_CALL_CHARS,
} from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { readCall } from '../../guard/guard-round.js';
import { hintsByTool } from '../../guard/loop-hints.js';
import { checkChoice, checkNumberOption } from '../../options/check-option.js';
import { resolveGuard } from '../../run/stop-conditions.js';
import { MemoryStore } from '../../store/memory-store.js';
import { isToolEffect, mayChangeWorld, type ToolEffect } from '../../tools/tool-effect.js';
import { GatewayAudit } from './gateway-audit.js';
import { type GatewayContext, routeOf } from './gateway-context.js';
import type { Gateway, GatewayOptions } from './gateway-options.js';
import type { GatewayPolicy } from './gateway-policy.js';
import { guardedExchange } from './guarded-exchange.js';
import { sendBody } from './http-io.js';
import { passThrough } from './pass-through.js';
import { rememberingCallReader } from './remembering-call-reader.js';
import { rememberingRedactor } from './remembering-redactor.js';
import { createUpstream, type UpstreamRoute } from './upstream.js';
import { PASS_THROUGH_ERROR_BODY, WIRES } from './wires.js';

/**
 * The guard on the model wire: an HTTP handler in front of a model provider that speaks its wire toward the
 * app and toward the provider, and guards each conversation's tool calls with the policy core the loop,
 * `guardTools` and the MCP proxy share: rounds rebuilt from the request's history, the loop guard and the
 * turn's limits judged on each answer before the app sees its calls, tool results' secrets removed before
 * the provider reads them. Everything it does not guard passes through unchanged, the provider's errors too.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const context = resolveContext(options);
  const { track, settled } = pending();
  const full: GatewayContext = { ...context, track };
  /** Requests being served, and who waits for there to be none. */
  let active = 0;
  let whenIdle: (() => void) | undefined;
  const handler: Gateway['handler'] = (request, response) => {
    const controller = new AbortController();
    active++;
    response.once('close', () => {
      if (!response.writableFinished) controller.abort();
      active--;
      if (active === 0) whenIdle?.();
    });
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const wire = WIRES.find((candidate) => candidate.matches(request.method ?? 'GET', path));
    const work =
      wire === undefined
        ? passThrough(full, request, response, controller.signal, {
            errorBody: PASS_THROUGH_ERROR_BODY,
            route: routeOf(full, isAnthropic(request, path) ? 'anthropic' : 'openai'),
          })
        : guardedExchange(full, wire, request, response, controller.signal);
    work.catch((error: unknown) => {
      full.log(`gateway: a request failed (${error instanceof Error ? error.name : typeof error})`);
      const body = (wire?.errorBody ?? PASS_THROUGH_ERROR_BODY)({
        status: 500,
        code: 'gateway_error',
        message: 'the request failed',
      });
      sendBody(response, 500, JSON.stringify(body));
    });
  };
  let server: Server | undefined;
  return {
    handler,
    async listen(listenOptions = {}) {
      if (server !== undefined)
        throw new InvalidOptionsError({ option: 'listen', message: 'was called twice' });
      const port = checkNumberOption(listenOptions.port, { option: 'listen.port', min: 0, max: 65_535 });
      const host = listenOptions.host ?? DEFAULT_GATEWAY_HOST;
      const started = createServer(handler);
      server = started;
      await new Promise<void>((resolve, reject) => {
        started.once('error', reject);
        started.listen(port ?? DEFAULT_GATEWAY_PORT, host, () => {
          started.off('error', reject);
          resolve();
        });
      });
      const address = started.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { url: `http://${shown}:${address.port}`, port: address.port };
    },
    async close() {
      const running = server;
      server = undefined;
      if (running !== undefined) {
        const closed = new Promise<void>((resolve) => running.close(() => resolve()));
        running.closeIdleConnections();
        // The requests under way finish; then every connection goes, those a client opened and never used too.
        if (active > 0) await new Promise<void>((resolve) => (whenIdle = resolve));
        running.closeAllConnections();
        await closed;
      }
      await settled();
      context.upstream.close();
      context.anthropic?.upstream.close();
    },
  };
}

/**
 * A path no wire guards goes to Anthropic's provider when it is one of Anthropic's (`/v1/messages/…`) or the
 * app's SDK says it speaks Anthropic's API (`anthropic-version`, which every Anthropic client sends).
 */
function isAnthropic(request: IncomingMessage, path: string): boolean {
  return path.startsWith('/v1/messages') || request.headers['anthropic-version'] !== undefined;
}

/** A provider's URL and the key the gateway sends it, checked; `option` names it in errors. */
function resolveRoute(
  value: { readonly url: string | URL; readonly apiKey?: string; readonly apiKeyHeader?: string },
  option: string,
  defaultHeader: string,
): UpstreamRoute {
  const url = upstreamUrl(value?.url, `${option}.url`);
  const apiKey = value.apiKey;
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.trim() === ''))
    throw new InvalidOptionsError({ option: `${option}.apiKey`, message: 'must be a non-empty string' });
  const header = (value.apiKeyHeader ?? defaultHeader).toLowerCase();
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(header))
    throw new InvalidOptionsError({ option: `${option}.apiKeyHeader`, message: 'must be a header name' });
  return {
    upstream: createUpstream(url),
    key: apiKey === undefined ? undefined : { header, value: apiKey.trim() },
  };
}

function resolveContext(options: GatewayOptions): Omit<GatewayContext, 'track'> {
  if (typeof options !== 'object' || options === null || typeof options.upstream !== 'object')
    throw new InvalidOptionsError({ option: 'options', message: 'must be an object with `upstream`' });
  const policy = resolvePolicy(options);
  const guard = policy.guard;
  const anthropicOptions = options.upstream.anthropic;
  if (anthropicOptions !== undefined && (typeof anthropicOptions !== 'object' || anthropicOptions === null))
    throw new InvalidOptionsError({
      option: 'upstream.anthropic',
      message: 'must be an object with `url` (and `apiKey`, `apiKeyHeader`)',
    });
  const main = resolveRoute(options.upstream, 'upstream', 'authorization');
  const anthropic =
    anthropicOptions === undefined
      ? undefined
      : resolveRoute(anthropicOptions, 'upstream.anthropic', 'x-api-key');
  const number = (value: unknown, option: string, fallback: number, timer = false) =>
    checkNumberOption(value, { option, min: 1, timer }) ?? fallback;
  const now = options.now ?? Date.now;
  const guardConfig =
    guard === false ? undefined : { thresholds: guard, hintsOf: hintsByTool(() => undefined, guard.hints) };
  const isWrite = (tool: string) => mayChangeWorld(policy.effectOf(tool));
  return {
    policy,
    guardConfig,
    readCall:
      guardConfig === undefined
        ? undefined
        : rememberingCallReader((call) => readCall(call, isWrite, guardConfig), MAX_GATEWAY_READ_CALL_CHARS),
    upstream: main.upstream,
    key: main.key,
    anthropic,
    store: options.store ?? new MemoryStore(),
    audit: options.audit === undefined ? undefined : new GatewayAudit(options.audit, () => new Date(now())),
    telemetry: options.telemetry,
    maxRequestBytes: number(options.maxRequestBytes, 'maxRequestBytes', DEFAULT_GATEWAY_MAX_REQUEST_BYTES),
    maxResponseBytes: number(
      options.maxResponseBytes,
      'maxResponseBytes',
      DEFAULT_GATEWAY_MAX_RESPONSE_BYTES,
    ),
    timeoutMs: number(options.timeoutMs, 'timeoutMs', DEFAULT_GATEWAY_UPSTREAM_TIMEOUT_MS, true),
    sessionHeader: DEFAULT_GATEWAY_SESSION_HEADER,
    stopHeader: DEFAULT_GATEWAY_STOP_HEADER,
    owned: new Set([DEFAULT_GATEWAY_SESSION_HEADER]),
    redactText: rememberingRedactor(MAX_GATEWAY_CLEAN_TEXT_CHARS),
    log: options.onLog ?? (() => {}),
    now,
  };
}

function upstreamUrl(value: unknown, option: string): URL {
  let url: URL | undefined;
  try {
    url = value instanceof URL ? value : typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new InvalidOptionsError({ option, message: 'must be an http:// or https:// URL' });
  return url;
}

function resolvePolicy(options: GatewayOptions): GatewayPolicy {
  const limits = options.limits ?? {};
  const count = (value: unknown, option: string, fallback: number) =>
    checkNumberOption(value, { option, min: 1 }) ?? fallback;
  const tools: Record<string, number> = Object.create(null);
  for (const [name, limit] of Object.entries(limits.tools ?? {}))
    tools[name] = count(limit, `limits.tools.${name}`, DEFAULT_MAX_CALLS_PER_TOOL);
  const effects = new Map<string, ToolEffect>();
  for (const [name, tool] of Object.entries(options.tools ?? {})) {
    if (!isToolEffect(tool?.effect))
      throw new InvalidOptionsError({
        option: `tools.${name}.effect`,
        message: "must be 'read', 'write', 'idempotent-write' or 'unknown'",
      });
    effects.set(name, tool.effect);
  }
  const flag = (value: unknown, option: string, fallback: boolean) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') throw new InvalidOptionsError({ option, message: 'must be a boolean' });
    return value;
  };
  return {
    limits: {
      perTool: count(limits.perTool, 'limits.perTool', DEFAULT_MAX_CALLS_PER_TOOL),
      total: count(limits.total, 'limits.total', DEFAULT_MAX_CALLS_PER_TURN),
      roundTrips: count(limits.roundTrips, 'limits.roundTrips', DEFAULT_MAX_ROUND_TRIPS),
      tools,
    },
    guard: options.loopGuard === false ? false : resolveGuard(options.loopGuard ?? {}),
    effectOf: (tool) => effects.get(tool) ?? DEFAULT_GATEWAY_TOOL_EFFECT,
    redact: {
      toolResults: flag(
        options.redact?.toolResults,
        'redact.toolResults',
        DEFAULT_GATEWAY_REDACT_TOOL_RESULTS,
      ),
      arguments: flag(options.redact?.arguments, 'redact.arguments', DEFAULT_GATEWAY_REDACT_ARGUMENTS),
    },
    onStop:
      checkChoice(options.onStop, { option: 'onStop', choices: ['final-answer', 'synthesize'] }) ??
      DEFAULT_GATEWAY_ON_STOP,
  };
}

/** Work that outlives a response, and a promise of it all settled. */
function pending(): { track: (work: Promise<unknown>) => void; settled: () => Promise<void> } {
  const running = new Set<Promise<unknown>>();
  return {
    track(work) {
      const kept = work.finally(() => running.delete(kept));
      running.add(kept);
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
