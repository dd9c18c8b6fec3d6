import { DEFAULT_IDEMPOTENCY_TTL_MS, DEFAULT_PROXY_OUTPUT_CONTRACT } from '../../../core/defaults.js';
import type { JsonSchema } from '../../../core/json-schema.js';
import { findSchemaProblem } from '../../../formats/find-schema-problem.js';
import { type ConfigReader, describe, oneKeyObject } from '../../../options/config-reader.js';
import { defaultSchemaCompiler } from '../../../schema/schema-compiler.js';
import type {
  AuditConfig,
  OutputContract,
  OutputContractMode,
  ProxyConfig,
  StoreConfig,
} from './proxy-config-types.js';

/** File paths and URLs: long enough for any real one. */
export const MAX_PATH_CHARS = 4096;
/** As the Redis store's own bound. */
const MAX_KEY_PREFIX_CHARS = 256;
const MODES: readonly OutputContractMode[] = ['from-server', 'none'];

/** `outputContracts`, checked (each schema compiled), with its defaults. */
export function readOutputContracts(value: unknown, reader: ConfigReader): ProxyConfig['outputContracts'] {
  const fallback = { default: DEFAULT_PROXY_OUTPUT_CONTRACT, tools: {} } as const;
  if (value === undefined) return fallback;
  const contracts = reader.object(value, '$.outputContracts', ['default', 'tools']);
  if (contracts === undefined) return fallback;
  const mode =
    contracts.default === undefined
      ? fallback.default
      : (reader.oneOf(contracts.default, '$.outputContracts.default', MODES) ?? fallback.default);
  const tools =
    contracts.tools === undefined
      ? {}
      : (reader.map(contracts.tools, '$.outputContracts.tools', (entry, path) =>
          contractOf(entry, path, reader),
        ) ?? {});
  return { default: mode, tools };
}

/** A mode, or a schema that compiles (checked here, so a broken schema is an error at start, not per call). */
function contractOf(entry: unknown, path: string, reader: ConfigReader): OutputContract | undefined {
  if (typeof entry === 'string') {
    const kind = reader.oneOf(entry, path, MODES);
    return kind === undefined ? undefined : { kind };
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    reader.problem(path, `must be "from-server", "none" or a JSON Schema object, got ${describe(entry)}`);
    return undefined;
  }
  const problem = findSchemaProblem(entry, 'output schema');
  if (problem !== undefined) {
    reader.problem(problem.path === '' ? path : `${path}.${problem.path}`, problem.message);
    return undefined;
  }
  try {
    defaultSchemaCompiler().compile(entry as JsonSchema);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reader.problem(path, `is not a valid JSON Schema: ${message.slice(0, 200)}`);
    return undefined;
  }
  return { kind: 'schema', schema: entry as JsonSchema };
}

/** A scope is a store key's session part (it is hashed past a length there): bounded here to stay readable. */
const MAX_IDEMPOTENCY_SCOPE_CHARS = 200;

/** `idempotentWrites`, checked, with its defaults. */
export function readIdempotentWrites(value: unknown, reader: ConfigReader): ProxyConfig['idempotentWrites'] {
  const fallback = {
    tools: [],
    store: { kind: 'memory' },
    ttlMs: DEFAULT_IDEMPOTENCY_TTL_MS,
    scope: undefined,
  } as const;
  if (value === undefined) return fallback;
  const writes = reader.object(value, '$.idempotentWrites', ['tools', 'store', 'ttlMs', 'scope']);
  if (writes === undefined) return fallback;
  return {
    tools:
      writes.tools === undefined ? [] : (reader.names(writes.tools, '$.idempotentWrites.tools', false) ?? []),
    store: writes.store === undefined ? fallback.store : (readStore(writes.store, reader) ?? fallback.store),
    ttlMs:
      writes.ttlMs === undefined
        ? fallback.ttlMs
        : (reader.number(writes.ttlMs, '$.idempotentWrites.ttlMs', { min: 1 }) ?? fallback.ttlMs),
    scope:
      writes.scope === undefined
        ? undefined
        : reader.string(writes.scope, '$.idempotentWrites.scope', MAX_IDEMPOTENCY_SCOPE_CHARS),
  };
}

/** `"memory"`, `{ "sqlite": "<file>" }` or `{ "redis": "redis://…", "keyPrefix"?: "<prefix>" }`. */
function readStore(value: unknown, reader: ConfigReader): StoreConfig | undefined {
  const path = '$.idempotentWrites.store';
  if (value === 'memory') return { kind: 'memory' };
  if (typeof value === 'string') {
    reader.problem(
      path,
      `must be "memory", { "sqlite": "<file>" } or { "redis": "<url>" }, got ${describe(value)}`,
    );
    return undefined;
  }
  const { keyPrefix, ...rest } =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { keyPrefix: undefined };
  const store = oneKeyObject(Array.isArray(value) ? value : rest, path, ['sqlite', 'redis'], reader);
  if (store === undefined) return undefined;
  if (store.key === 'sqlite') {
    if (keyPrefix !== undefined) reader.problem(`${path}.keyPrefix`, 'is for a Redis store only');
    const file = reader.string(store.value, `${path}.sqlite`, MAX_PATH_CHARS);
    return file === undefined ? undefined : { kind: 'sqlite', path: file };
  }
  const url = reader.string(store.value, `${path}.redis`, MAX_PATH_CHARS);
  if (url === undefined) return undefined;
  if (!/^rediss?:\/\//.test(url)) {
    reader.problem(`${path}.redis`, 'must be a redis:// or rediss:// URL');
    return undefined;
  }
  if (keyPrefix === undefined) return { kind: 'redis', url };
  const prefix = reader.string(keyPrefix, `${path}.keyPrefix`, MAX_KEY_PREFIX_CHARS);
  if (prefix === undefined) return undefined;
  if (/[{}]/.test(prefix)) {
    reader.problem(`${path}.keyPrefix`, 'must not hold { or } (they would move the hash tag)');
    return undefined;
  }
  return { kind: 'redis', url, keyPrefix: prefix };
}

/** `false`, `{ "jsonl": "<file>" }` or `{ "sqlite": "<file>" }`. */
export function readAudit(value: unknown, reader: ConfigReader): AuditConfig | false {
  if (value === undefined || value === false) return false;
  const audit = oneKeyObject(value, '$.audit', ['jsonl', 'sqlite'], reader);
  if (audit === undefined) return false;
  const file = reader.string(audit.value, `$.audit.${audit.key}`, MAX_PATH_CHARS);
  return file === undefined ? false : { kind: audit.key, path: file };
}
