import { type ConfigReader, describe, keyPath, MAX_LIST_ENTRIES } from '../../../options/config-reader.js';
import { NAMESPACE_RULE, NAMESPACE_SEPARATORS, type NamespaceSeparator } from './namespace-tools.js';
import type {
  ClientKeySource,
  HeaderValue,
  ProxyAuthConfig,
  ProxyConfig,
  UpstreamEnv,
  UpstreamServer,
} from './proxy-config-types.js';
import { MAX_PATH_CHARS } from './read-proxy-stores.js';

/** One environment value, at most (Linux allows 128 KiB per string; a config file has no business near it). */
const MAX_ENV_VALUE_CHARS = 32 * 1024;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
const ENV_NAME_RULE = 'must be a variable name (letters, digits and _, not starting with a digit)';
/** More upstreams than any one endpoint should front: each is a process or a connection. */
const MAX_SERVERS = 64;
const MAX_ARGS = 1_000;
const MAX_ARG_CHARS = 32 * 1024;
/** RFC 9110 token characters: what a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const MAX_HEADER_VALUE_CHARS = 8 * 1024;
/** A client id: what the audit records show; no spaces, since the keys file splits on them. */
const CLIENT_ID = /^[A-Za-z0-9_.@-]{1,64}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const MAX_CLIENTS = 10_000;

/** `upstream`, checked: the environment passed to a spawned server, the headers sent to a remote one. */
export function readUpstream(value: unknown, reader: ConfigReader): ProxyConfig['upstream'] {
  const fallback = { env: { pass: [], set: {} }, headers: {} };
  if (value === undefined) return fallback;
  const upstream = reader.object(value, '$.upstream', ['env', 'headers']);
  if (upstream === undefined) return fallback;
  return {
    env: upstream.env === undefined ? fallback.env : readEnv(upstream.env, '$.upstream.env', reader),
    headers:
      upstream.headers === undefined ? {} : readHeaders(upstream.headers, '$.upstream.headers', reader),
  };
}

/** `namespaceSeparator`: `"."` (default), `"_"` or `"__"`. */
export function readSeparator(value: unknown, reader: ConfigReader): NamespaceSeparator {
  if (value === undefined) return '.';
  return reader.oneOf(value, '$.namespaceSeparator', NAMESPACE_SEPARATORS) ?? '.';
}

/** `servers`: namespace → `{ command, args?, cwd?, env?, reconnect? }` or `{ url, headers?, reconnect? }`. */
export function readServers(value: unknown, reader: ConfigReader): Readonly<Record<string, UpstreamServer>> {
  if (value === undefined) return {};
  if (typeof value === 'object' && value !== null && Object.keys(value).length > MAX_SERVERS) {
    reader.problem('$.servers', `must list at most ${MAX_SERVERS} servers, got ${Object.keys(value).length}`);
    return {};
  }
  return (
    reader.map(
      value,
      '$.servers',
      (entry, path) => readServer(entry, path, reader),
      (key, path) => {
        if (NAMESPACE_RULE.test(key)) return true;
        reader.problem(
          path,
          'must be a namespace: a lowercase letter, then up to 31 lowercase letters, digits or "-" (no "." or "_", which separate it from the tool name)',
        );
        return false;
      },
    ) ?? {}
  );
}

function readServer(value: unknown, path: string, reader: ConfigReader): UpstreamServer | undefined {
  const server = reader.object(value, path, ['command', 'args', 'cwd', 'env', 'url', 'headers', 'reconnect']);
  if (server === undefined) return undefined;
  const reconnect =
    server.reconnect === undefined ? true : (reader.boolean(server.reconnect, `${path}.reconnect`) ?? true);
  const hasCommand = server.command !== undefined;
  const hasUrl = server.url !== undefined;
  if (hasCommand === hasUrl) {
    reader.problem(
      path,
      'must have either "command" (a server spawned over stdio) or "url" (a remote server over Streamable HTTP)',
    );
    return undefined;
  }
  if (hasUrl) {
    for (const key of ['args', 'cwd', 'env'] as const)
      if (server[key] !== undefined)
        reader.problem(`${path}.${key}`, 'belongs to a spawned server ("command"), not to a "url" one');
    const url = readUrl(server.url, `${path}.url`, reader);
    const headers =
      server.headers === undefined ? {} : readHeaders(server.headers, `${path}.headers`, reader);
    return url === undefined ? undefined : { kind: 'http', url, headers, reconnect };
  }
  if (server.headers !== undefined)
    reader.problem(`${path}.headers`, 'belongs to a remote server ("url"), not to a spawned one');
  const command = reader.string(server.command, `${path}.command`, MAX_PATH_CHARS);
  const args = server.args === undefined ? [] : readArgs(server.args, `${path}.args`, reader);
  const cwd = server.cwd === undefined ? undefined : reader.string(server.cwd, `${path}.cwd`, MAX_PATH_CHARS);
  const env = server.env === undefined ? { pass: [], set: {} } : readEnv(server.env, `${path}.env`, reader);
  return command === undefined ? undefined : { kind: 'stdio', command, args, cwd, env, reconnect };
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
  if (url.username !== '' || url.password !== '') {
    reader.problem(
      path,
      'must not hold a user or password: send credentials in "headers", read from the environment',
    );
    return undefined;
  }
  return url.href;
}

function readArgs(value: unknown, path: string, reader: ConfigReader): readonly string[] {
  if (!Array.isArray(value) || value.length > MAX_ARGS) {
    reader.problem(path, `must be an array of at most ${MAX_ARGS} strings, got ${describe(value)}`);
    return [];
  }
  const args: string[] = [];
  value.forEach((arg, index) => {
    if (typeof arg === 'string' && arg.length <= MAX_ARG_CHARS && !arg.includes('\u0000')) args.push(arg);
    else
      reader.problem(
        `${path}[${index}]`,
        `must be a string of at most ${MAX_ARG_CHARS} characters without NUL, got ${describe(arg)}`,
      );
  });
  return args;
}

/**
 * `{ "Name": "value" }`, `{ "Name": { "env": "VAR", "prefix"?: "Bearer " } }`, or `{ "Name": { "fromClient":
 * "X-Upstream-Token" } }` (the client's own header, per client session).
 */
function readHeaders(
  value: unknown,
  path: string,
  reader: ConfigReader,
): Readonly<Record<string, HeaderValue>> {
  return (
    reader.map(
      value,
      path,
      (entry, at) => readHeader(entry, at, reader),
      (key, at) => {
        if (!HEADER_NAME.test(key)) {
          reader.problem(at, "must be a header name (letters, digits and !#$%&'*+.^_`|~-)");
          return false;
        }
        if (/^(mcp-session-id|mcp-protocol-version|content-length|host|transfer-encoding)$/i.test(key)) {
          reader.problem(at, 'is set by the MCP transport itself');
          return false;
        }
        return true;
      },
    ) ?? {}
  );
}

function readHeader(entry: unknown, path: string, reader: ConfigReader): HeaderValue | undefined {
  if (typeof entry === 'string') {
    return headerText(entry, path, reader) === undefined ? undefined : { kind: 'value', value: entry };
  }
  const from = reader.object(entry, path, ['env', 'prefix', 'fromClient']);
  if (from === undefined) return undefined;
  if (from.fromClient !== undefined) {
    if (from.env !== undefined || from.prefix !== undefined)
      reader.problem(path, 'takes "fromClient" alone, or "env" with "prefix"');
    if (typeof from.fromClient !== 'string' || !HEADER_NAME.test(from.fromClient)) {
      reader.problem(
        `${path}.fromClient`,
        `must be a header name (letters, digits and !#$%&'*+.^_\`|~-), got ${describe(from.fromClient)}`,
      );
      return undefined;
    }
    return { kind: 'client', name: from.fromClient.toLowerCase() };
  }
  if (typeof from.env !== 'string' || !ENV_NAME.test(from.env)) {
    reader.problem(`${path}.env`, `${ENV_NAME_RULE}, got ${describe(from.env)}`);
    return undefined;
  }
  const prefix = from.prefix === undefined ? '' : headerText(from.prefix, `${path}.prefix`, reader);
  return prefix === undefined ? undefined : { kind: 'env', name: from.env, prefix };
}

function headerText(value: unknown, path: string, reader: ConfigReader): string | undefined {
  // Control characters would split or smuggle a header.
  if (typeof value === 'string' && value.length <= MAX_HEADER_VALUE_CHARS && !hasControlCharacter(value))
    return value;
  reader.problem(
    path,
    `must be a string of at most ${MAX_HEADER_VALUE_CHARS} characters without control characters, got ${describe(value)}`,
  );
  return undefined;
}

/** `{ pass: [names], set: { NAME: value } }`: the environment of a spawned server. */
export function readEnv(value: unknown, path: string, reader: ConfigReader): UpstreamEnv {
  const env = reader.object(value, path, ['pass', 'set']);
  if (env === undefined) return { pass: [], set: {} };
  const pass: string[] = [];
  if (env.pass !== undefined) {
    if (!Array.isArray(env.pass) || env.pass.length > MAX_LIST_ENTRIES) {
      reader.problem(`${path}.pass`, `must be an array of variable names, got ${describe(env.pass)}`);
    } else {
      env.pass.forEach((name, index) => {
        if (typeof name === 'string' && ENV_NAME.test(name) && name !== '__proto__') pass.push(name);
        else reader.problem(`${path}.pass[${index}]`, `${ENV_NAME_RULE}, got ${describe(name)}`);
      });
    }
  }
  const set =
    env.set === undefined
      ? {}
      : (reader.map(env.set, `${path}.set`, (entry, at) => envValue(entry, at, reader), envName) ?? {});
  return { pass: [...new Set(pass)], set };

  function envName(key: string, at: string): boolean {
    if (ENV_NAME.test(key)) return true;
    reader.problem(at, ENV_NAME_RULE);
    return false;
  }
}

function envValue(entry: unknown, path: string, reader: ConfigReader): string | undefined {
  if (typeof entry === 'string' && entry.length <= MAX_ENV_VALUE_CHARS && !entry.includes('\u0000'))
    return entry;
  reader.problem(
    path,
    `must be a string of at most ${MAX_ENV_VALUE_CHARS} characters without NUL, got ${describe(entry)}`,
  );
  return undefined;
}

/** `auth`: `"none"`, or `{ clients?: { id: { env } | { sha256 } }, keysFile?: path }`. */
export function readAuth(value: unknown, reader: ConfigReader): ProxyAuthConfig | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return { kind: 'none' };
  if (typeof value === 'string') {
    reader.problem('$.auth', `must be "none" or { "clients": …, "keysFile": … }, got ${describe(value)}`);
    return undefined;
  }
  const auth = reader.object(value, '$.auth', ['clients', 'keysFile']);
  if (auth === undefined) return undefined;
  if (auth.clients === undefined && auth.keysFile === undefined) {
    reader.problem('$.auth', 'must name "clients" or a "keysFile" (or be "none")');
    return undefined;
  }
  let clients: Readonly<Record<string, ClientKeySource>> = {};
  if (auth.clients !== undefined) {
    if (
      typeof auth.clients === 'object' &&
      auth.clients !== null &&
      Object.keys(auth.clients).length > MAX_CLIENTS
    )
      reader.problem('$.auth.clients', `must list at most ${MAX_CLIENTS} clients (put more in a keysFile)`);
    else
      clients =
        reader.map(
          auth.clients,
          '$.auth.clients',
          (entry, path) => readClientKey(entry, path, reader),
          (key, path) => checkClientId(key, path, reader),
        ) ?? {};
  }
  const keysFile =
    auth.keysFile === undefined ? undefined : reader.string(auth.keysFile, '$.auth.keysFile', MAX_PATH_CHARS);
  return { kind: 'keys', clients, keysFile };
}

function readClientKey(entry: unknown, path: string, reader: ConfigReader): ClientKeySource | undefined {
  const source = reader.object(entry, path, ['env', 'sha256']);
  if (source === undefined) return undefined;
  if ((source.env === undefined) === (source.sha256 === undefined)) {
    reader.problem(
      path,
      'must have either "env" (the variable holding the key) or "sha256" (the key\'s hash, hex)',
    );
    return undefined;
  }
  if (source.env !== undefined) {
    if (typeof source.env === 'string' && ENV_NAME.test(source.env)) return { kind: 'env', name: source.env };
    reader.problem(keyPath(path, 'env'), `${ENV_NAME_RULE}, got ${describe(source.env)}`);
    return undefined;
  }
  if (typeof source.sha256 === 'string' && SHA256_HEX.test(source.sha256))
    return { kind: 'sha256', hash: source.sha256 };
  reader.problem(
    keyPath(path, 'sha256'),
    'must be 64 lowercase hex digits, the sha256sum of the key (the value is not shown: it could be the key itself)',
  );
  return undefined;
}

/** Whether a client id is well formed (letters, digits and `_.@-`, 1 to 64), else a problem. */
export function checkClientId(key: string, path: string, reader: ConfigReader): boolean {
  if (CLIENT_ID.test(key)) return true;
  reader.problem(path, 'must be a client id: 1 to 64 letters, digits, "_", ".", "@" or "-"');
  return false;
}

/** Whether a text holds a control character (U+0000 to U+001F, U+007F): in a header it would split or smuggle one. */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
