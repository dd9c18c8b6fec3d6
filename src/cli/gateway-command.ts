import { resolve } from 'node:path';
import { createGateway } from '../adapters/gateway/create-gateway.js';
import {
  type GatewayConfig,
  parseGatewayConfigText,
  upstreamKeyOf,
} from '../adapters/gateway/gateway-config.js';
import { GatewayConfigError } from '../adapters/gateway/gateway-config-error.js';
import type { GatewayOptions } from '../adapters/gateway/gateway-options.js';
import type { AuditSink } from '../audit/audit-sink.js';
import { createJsonlAuditSink } from '../audit/jsonl-audit-sink.js';
import { MAX_GATEWAY_CONFIG_BYTES } from '../core/defaults.js';
import type { Store } from '../core/store.js';
import { MemoryStore } from '../store/memory-store.js';
import type { CommandIo } from './command-io.js';
import { readBoundedFile } from './read-bounded-file.js';

export const GATEWAY_USAGE = `Usage: toolwarden gateway --config gateway.json

An HTTP server in front of a model provider (OpenAI chat completions and Responses, Anthropic Messages;
plain and streamed): point an app's
base URL at it, in any language. Per conversation it rebuilds the turn's tool rounds from each request,
stops a tool-call loop or a call past the turn's limits before the app runs it (the model answers with
tools off), removes secrets from tool results before the provider reads them, and writes the audit log
and telemetry. Everything else passes through unchanged, the provider's errors too.

Options:
  --config <file>  the config file (docs/gateway.md: "The config file"); "upstream.url" is required
  -h, --help       show this text

The provider's key: the app's own passes through, unless "upstream.apiKeyEnv" names an environment
variable holding the key the gateway sends instead. Anthropic's requests go to "upstream.url" too, unless
"upstream.anthropic" names a provider of their own (its url, apiKeyEnv, apiKeyHeader: x-api-key by
default). No key is ever written to a log.

Exit codes: 0 stopped (Ctrl-C, SIGTERM), 1 the server could not start, 2 usage error (bad arguments,
a bad config file, a key variable that is not set).
`;

type GatewayArgs =
  | { readonly kind: 'run'; readonly config: string }
  | { readonly kind: 'help' }
  | { readonly kind: 'usage-error'; readonly message: string };

export function parseGatewayArgs(argv: readonly string[]): GatewayArgs {
  if (argv.includes('-h') || argv.includes('--help')) return { kind: 'help' };
  let config: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--config') {
      const value = argv[++index];
      if (value === undefined || value === '')
        return { kind: 'usage-error', message: '--config needs a file' };
      config = value;
    } else if (arg.startsWith('--config=') && arg.length > '--config='.length)
      config = arg.slice('--config='.length);
    else return { kind: 'usage-error', message: `unknown argument for gateway: ${arg}` };
  }
  if (config === undefined) return { kind: 'usage-error', message: 'gateway needs --config <file>' };
  return { kind: 'run', config };
}

export interface GatewayCommandDeps {
  /** Where `upstream.apiKeyEnv` is read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * `toolwarden gateway`: serves until `io.signal` aborts (Ctrl-C, SIGTERM), then lets the requests under way
 * finish and closes the audit log and the store. Its lines go to stderr; none holds a key.
 */
export async function runGatewayCommand(
  argv: readonly string[],
  io: CommandIo,
  deps: GatewayCommandDeps = {},
): Promise<number> {
  const parsed = parseGatewayArgs(argv);
  switch (parsed.kind) {
    case 'help':
      await io.stdout(GATEWAY_USAGE);
      return 0;
    case 'usage-error':
      await io.stderr(`toolwarden: ${parsed.message}\n\n${GATEWAY_USAGE}`);
      return 2;
    case 'run':
      break;
    default: {
      const never: never = parsed;
      return never;
    }
  }
  const log = (line: string) => void io.stderr(`toolwarden gateway: ${line}\n`);
  let config: GatewayConfig;
  let key: ReturnType<typeof upstreamKeyOf>;
  let anthropicKey: ReturnType<typeof upstreamKeyOf>;
  try {
    config = await readConfig(parsed.config, io.cwd);
    key = upstreamKeyOf(config, deps.env ?? process.env, parsed.config);
    anthropicKey = upstreamKeyOf(config, deps.env ?? process.env, parsed.config, 'anthropic');
  } catch (error) {
    if (!GatewayConfigError.isInstance(error)) throw error;
    await io.stderr(`toolwarden gateway: ${error.message}\n`);
    return 2;
  }
  let opened: Opened;
  try {
    opened = await openResources(config, io.cwd, log);
  } catch (error) {
    await io.stderr(`toolwarden gateway: ${messageOf(error)}\n`);
    return 1;
  }
  const options: GatewayOptions = {
    upstream: {
      url: config.upstream.url,
      ...(key === undefined ? {} : { apiKey: key.value, apiKeyHeader: key.header }),
      ...(config.upstream.anthropic === undefined
        ? {}
        : {
            anthropic: {
              url: config.upstream.anthropic.url,
              apiKeyHeader: config.upstream.anthropic.apiKeyHeader,
              ...(anthropicKey === undefined ? {} : { apiKey: anthropicKey.value }),
            },
          }),
    },
    limits: config.limits,
    loopGuard: config.loopGuard,
    tools: config.tools,
    redact: config.redact,
    onStop: config.onStop,
    store: opened.store,
    ...(opened.audit === undefined ? {} : { audit: opened.audit }),
    ...(opened.telemetry === undefined ? {} : { telemetry: opened.telemetry }),
    timeoutMs: config.timeoutMs,
    maxRequestBytes: config.maxRequestBytes,
    maxResponseBytes: config.maxResponseBytes,
    onLog: log,
  };
  const gateway = createGateway(options);
  try {
    const { url } = await gateway.listen(config.listen);
    const keyNote = key === undefined ? "the app's key" : `the key in ${config.upstream.apiKeyEnv}`;
    log(`listening on ${url} (base URL ${url}/v1), guarding ${config.upstream.url} with ${keyNote}`);
  } catch (error) {
    await io.stderr(
      `toolwarden gateway: cannot listen on ${config.listen.host}:${config.listen.port}: ${messageOf(error)}\n`,
    );
    await gateway.close();
    await opened.close();
    return 1;
  }
  await new Promise<void>((done) => {
    if (io.signal === undefined || io.signal.aborted) return done();
    io.signal.addEventListener('abort', () => done(), { once: true });
  });
  log('stopping: the requests under way finish first');
  await gateway.close();
  await opened.close();
  return 0;
}

interface Opened {
  readonly store: Store;
  readonly audit: AuditSink | undefined;
  readonly telemetry: GatewayOptions['telemetry'];
  close(): Promise<void>;
}

/** The store, the audit sink and telemetry the config names; SQLite, Redis and OpenTelemetry are imported only when named. */
async function openResources(
  config: GatewayConfig,
  cwd: string,
  log: (line: string) => void,
): Promise<Opened> {
  const store = await openStore(config.store, cwd);
  const onError = (failure: { operation: string; lostRecords: number }) =>
    log(`audit: ${failure.operation} failed, ${failure.lostRecords} record(s) lost`);
  let audit: AuditSink | undefined;
  try {
    audit =
      config.audit === false
        ? undefined
        : config.audit.kind === 'jsonl'
          ? createJsonlAuditSink({ path: resolve(cwd, config.audit.path), onError })
          : (await import('../adapters/sqlite/sqlite-audit-sink.js')).createSqliteAuditSink({
              path: resolve(cwd, config.audit.path),
              onError,
            });
  } catch (error) {
    await store.close?.();
    throw error;
  }
  const telemetry = config.telemetry
    ? (await import('../telemetry/otel-gateway-telemetry.js')).otelGatewayTelemetry()
    : undefined;
  return {
    store,
    audit,
    telemetry,
    async close() {
      await audit?.close();
      await store.close?.();
    },
  };
}

async function openStore(config: GatewayConfig['store'], cwd: string): Promise<Store> {
  switch (config.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite':
      return (await import('../adapters/sqlite/sqlite-store.js')).createSqliteStore({
        path: resolve(cwd, config.path),
      });
    case 'redis':
      return (await import('../adapters/redis/redis-store.js')).createRedisStore({ url: config.url });
    default: {
      const never: never = config;
      return never;
    }
  }
}

async function readConfig(path: string, cwd: string): Promise<GatewayConfig> {
  const read = await readBoundedFile(resolve(cwd, path), MAX_GATEWAY_CONFIG_BYTES);
  if ('problem' in read)
    throw new GatewayConfigError({ source: path, problems: [{ path: '$', message: read.problem }] });
  return parseGatewayConfigText(read.text, path);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
}
