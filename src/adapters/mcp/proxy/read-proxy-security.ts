import {
  DEFAULT_PROXY_PIN_CHANGES,
  DEFAULT_PROXY_SECRETS_IN_ARGUMENTS,
  DEFAULT_PROXY_SECRETS_IN_RESULTS,
} from '../../../core/defaults.js';
import { type ConfigReader, describe } from '../../../options/config-reader.js';
import type {
  PinsConfig,
  RateLimitsConfig,
  RateWindowLimits,
  SecretAction,
  SecretActions,
  SecretsConfig,
  ToolRateLimit,
} from './proxy-security-config.js';

const SECRET_ACTIONS: readonly SecretAction[] = ['block', 'redact', 'audit', 'off'];
const DIRECTIONS = ['arguments', 'results'] as const;
/** A digest as `toolDigest` writes it and the refusal shows it. */
export const PIN_DIGEST = /^sha256:[0-9a-f]{64}$/;
/** Digests approved for one tool, at most (old ones are removed as definitions move on). */
const MAX_APPROVED_DIGESTS = 16;

/** `secrets`: false, or `{ arguments?, results?, tools? }` with the defaults filled in. */
export function readSecrets(value: unknown, reader: ConfigReader): SecretsConfig | false {
  const fallback: SecretsConfig = {
    arguments: DEFAULT_PROXY_SECRETS_IN_ARGUMENTS,
    results: DEFAULT_PROXY_SECRETS_IN_RESULTS,
    tools: {},
  };
  if (value === false) return false;
  if (value === undefined) return fallback;
  const secrets = reader.object(value, '$.secrets', [...DIRECTIONS, 'tools']);
  if (secrets === undefined) return fallback;
  const action = (entry: unknown, path: string, otherwise: SecretAction) =>
    entry === undefined ? otherwise : (reader.oneOf(entry, path, SECRET_ACTIONS) ?? otherwise);
  // Read in the document's order, so the problems are listed in it.
  const actions = {
    arguments: action(secrets.arguments, '$.secrets.arguments', fallback.arguments),
    results: action(secrets.results, '$.secrets.results', fallback.results),
  };
  const tools =
    secrets.tools === undefined
      ? {}
      : (reader.map(
          secrets.tools,
          '$.secrets.tools',
          (entry, path) => toolSecrets(entry, path, reader),
          (key, at) => reader.name(key, at, true),
        ) ?? {});
  return { ...actions, tools };
}

/** One tool's entry: an action for both directions, or `{ arguments?, results? }`. */
function toolSecrets(entry: unknown, path: string, reader: ConfigReader): Partial<SecretActions> | undefined {
  if (typeof entry === 'string') {
    const both = reader.oneOf(entry, path, SECRET_ACTIONS);
    return both === undefined ? undefined : { arguments: both, results: both };
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    reader.problem(
      path,
      `must be "block", "redact", "audit", "off" or { "arguments", "results" }, got ${describe(entry)}`,
    );
    return undefined;
  }
  const tool = reader.object(entry, path, DIRECTIONS);
  if (tool === undefined) return undefined;
  const actions: { arguments?: SecretAction; results?: SecretAction } = {};
  for (const direction of DIRECTIONS) {
    if (tool[direction] === undefined) continue;
    const chosen = reader.oneOf(tool[direction], `${path}.${direction}`, SECRET_ACTIONS);
    if (chosen !== undefined) actions[direction] = chosen;
  }
  return actions;
}

/** `pins`: false, or `{ onChange?, approve? }` with the defaults filled in. */
export function readPins(value: unknown, reader: ConfigReader): PinsConfig | false {
  const fallback: PinsConfig = { onChange: DEFAULT_PROXY_PIN_CHANGES, approve: {} };
  if (value === false) return false;
  if (value === undefined) return fallback;
  const pins = reader.object(value, '$.pins', ['onChange', 'approve']);
  if (pins === undefined) return fallback;
  const onChange =
    pins.onChange === undefined
      ? fallback.onChange
      : (reader.oneOf(pins.onChange, '$.pins.onChange', ['refuse', 'flag'] as const) ?? fallback.onChange);
  const approve =
    pins.approve === undefined
      ? {}
      : (reader.map(pins.approve, '$.pins.approve', (entry, path) => digestsOf(entry, path, reader)) ?? {});
  return { onChange, approve };
}

/** A digest or a list of them, each `sha256:` and 64 lowercase hex digits. */
function digestsOf(entry: unknown, path: string, reader: ConfigReader): readonly string[] | undefined {
  const list = typeof entry === 'string' ? [entry] : entry;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_APPROVED_DIGESTS) {
    reader.problem(
      path,
      `must be a digest ("sha256:" and 64 hex digits) or an array of 1 to ${MAX_APPROVED_DIGESTS}, got ${describe(entry)}`,
    );
    return undefined;
  }
  const bad = list.findIndex((digest) => typeof digest !== 'string' || !PIN_DIGEST.test(digest));
  if (bad !== -1) {
    const at = typeof entry === 'string' ? path : `${path}[${bad}]`;
    reader.problem(
      at,
      `must be a digest ("sha256:" and 64 lowercase hex digits), got ${describe(list[bad])}`,
    );
    return undefined;
  }
  return list as string[];
}

/** `rateLimits`: `{ perClient?, tools? }`; nothing limited by default. */
export function readRateLimits(value: unknown, reader: ConfigReader): RateLimitsConfig {
  const fallback: RateLimitsConfig = { perClient: undefined, tools: {} };
  if (value === undefined) return fallback;
  const limits = reader.object(value, '$.rateLimits', ['perClient', 'tools']);
  if (limits === undefined) return fallback;
  const perClient =
    limits.perClient === undefined
      ? undefined
      : windowsOf(limits.perClient, '$.rateLimits.perClient', reader, []);
  const tools =
    limits.tools === undefined
      ? {}
      : (reader.map(
          limits.tools,
          '$.rateLimits.tools',
          (entry, path) => toolLimitOf(entry, path, reader),
          (key, at) => reader.name(key, at, true),
        ) ?? {});
  return { perClient, tools };
}

function toolLimitOf(entry: unknown, path: string, reader: ConfigReader): ToolRateLimit | undefined {
  const windows = windowsOf(entry, path, reader, ['per']);
  if (windows === undefined) return undefined;
  const per = (entry as { per?: unknown }).per;
  const scope = per === undefined ? 'client' : reader.oneOf(per, `${path}.per`, ['client', 'proxy'] as const);
  return scope === undefined ? undefined : { ...windows, per: scope };
}

/** `{ perMinute?, perHour? }` (one at least), each a count of calls >= 1; `extra`: other keys the caller reads. */
function windowsOf(
  entry: unknown,
  path: string,
  reader: ConfigReader,
  extra: readonly string[],
): RateWindowLimits | undefined {
  const limits = reader.object(entry, path, ['perMinute', 'perHour', ...extra]);
  if (limits === undefined) return undefined;
  if (limits.perMinute === undefined && limits.perHour === undefined) {
    reader.problem(path, 'must set "perMinute", "perHour" or both');
    return undefined;
  }
  const count = (key: 'perMinute' | 'perHour') =>
    limits[key] === undefined ? undefined : reader.number(limits[key], `${path}.${key}`, { min: 1 });
  const perMinute = count('perMinute');
  const perHour = count('perHour');
  if (
    (limits.perMinute !== undefined && perMinute === undefined) ||
    (limits.perHour !== undefined && perHour === undefined)
  )
    return undefined;
  return { perMinute, perHour };
}
