import {
  DEFAULT_GUARD_WINDOW_ROUNDS,
  DEFAULT_PROXY_CONFIRM_TOOLS,
  DEFAULT_PROXY_IF_NO_ELICITATION,
  DEFAULT_PROXY_MAX_CALLS_PER_SESSION,
  DEFAULT_PROXY_MAX_CALLS_PER_TOOL,
  DEFAULT_PROXY_REDACT_ERRORS,
  DEFAULT_PROXY_TELEMETRY,
  DEFAULT_PROXY_TRUST_ANNOTATIONS,
  DEFAULT_TIMEOUT_MS,
} from '../../../core/defaults.js';
import { type GuardOptions, type ResolvedGuard, resolveGuard } from '../../../run/stop-conditions.js';
import { type LoopHints, loopHintsProblem } from '../../../tools/loop-hints.js';
import type { ConfigReader } from './config-reader.js';
import type { ConfirmConfig, ProxyConfig } from './proxy-config-types.js';
import { readAudit, readIdempotentWrites, readOutputContracts, readUpstream } from './read-proxy-stores.js';

const TOP_KEYS = [
  '$schema',
  'limits',
  'loopGuard',
  'timeouts',
  'outputContracts',
  'redactErrors',
  'idempotentWrites',
  'confirm',
  'allow',
  'deny',
  'audit',
  'telemetry',
  'trustAnnotations',
  'upstream',
] as const;

/** The whole config, read section by section; undefined when the document is not an object at all. */
export function readSections(json: unknown, reader: ConfigReader): ProxyConfig | undefined {
  const top = reader.object(json, '$', TOP_KEYS);
  if (top === undefined) return undefined;
  if (top.$schema !== undefined) reader.string(top.$schema, '$.$schema', 2048);
  const flag = (key: 'redactErrors' | 'telemetry' | 'trustAnnotations', fallback: boolean) =>
    top[key] === undefined ? fallback : (reader.boolean(top[key], `$.${key}`) ?? fallback);
  const config: ProxyConfig = {
    limits: readLimits(top.limits, reader),
    loopGuard: readLoopGuard(top.loopGuard, reader),
    timeouts: readTimeouts(top.timeouts, reader),
    outputContracts: readOutputContracts(top.outputContracts, reader),
    redactErrors: flag('redactErrors', DEFAULT_PROXY_REDACT_ERRORS),
    idempotentWrites: readIdempotentWrites(top.idempotentWrites, reader),
    confirm: readConfirm(top.confirm, reader),
    allow: top.allow === undefined ? undefined : (reader.names(top.allow, '$.allow', true) ?? []),
    deny: top.deny === undefined ? [] : (reader.names(top.deny, '$.deny', true) ?? []),
    audit: readAudit(top.audit, reader),
    telemetry: flag('telemetry', DEFAULT_PROXY_TELEMETRY),
    trustAnnotations: flag('trustAnnotations', DEFAULT_PROXY_TRUST_ANNOTATIONS),
    upstream: readUpstream(top.upstream, reader),
  };
  if (config.confirm !== false && config.confirm.ifNoElicitation === 'allow-and-audit' && !config.audit) {
    reader.problem(
      '$.confirm.ifNoElicitation',
      '"allow-and-audit" needs an audit log to write the record to: set "audit"',
    );
  }
  return config;
}

function readLimits(value: unknown, reader: ConfigReader): ProxyConfig['limits'] {
  const fallback = {
    perTool: DEFAULT_PROXY_MAX_CALLS_PER_TOOL,
    total: DEFAULT_PROXY_MAX_CALLS_PER_SESSION,
    tools: {},
  };
  if (value === undefined) return fallback;
  const limits = reader.object(value, '$.limits', ['perTool', 'total', 'tools']);
  if (limits === undefined) return fallback;
  const count = (entry: unknown, path: string) => reader.number(entry, path, { min: 1 });
  return {
    perTool:
      limits.perTool === undefined ? fallback.perTool : (count(limits.perTool, '$.limits.perTool') ?? 0),
    total: limits.total === undefined ? fallback.total : (count(limits.total, '$.limits.total') ?? 0),
    tools: limits.tools === undefined ? {} : (reader.map(limits.tools, '$.limits.tools', count) ?? {}),
  };
}

function readTimeouts(value: unknown, reader: ConfigReader): ProxyConfig['timeouts'] {
  const fallback = { defaultMs: DEFAULT_TIMEOUT_MS, tools: {} };
  if (value === undefined) return fallback;
  const timeouts = reader.object(value, '$.timeouts', ['defaultMs', 'tools']);
  if (timeouts === undefined) return fallback;
  const ms = (entry: unknown, path: string) => reader.number(entry, path, { min: 1, timer: true });
  return {
    defaultMs:
      timeouts.defaultMs === undefined
        ? DEFAULT_TIMEOUT_MS
        : (ms(timeouts.defaultMs, '$.timeouts.defaultMs') ?? 0),
    tools: timeouts.tools === undefined ? {} : (reader.map(timeouts.tools, '$.timeouts.tools', ms) ?? {}),
  };
}

/** The guard's thresholds, with the rules `loopGuard()` applies to them (`resolveGuard` fills the defaults). */
const THRESHOLDS: Readonly<Record<string, { min: number; max?: number }>> = {
  repeatLimit: { min: 2 },
  sameResultLimit: { min: 2 },
  maxCyclePeriod: { min: 0 },
  noProgressRounds: { min: 2, max: DEFAULT_GUARD_WINDOW_ROUNDS },
  transientRepeatLimit: { min: 0 },
};

function readLoopGuard(value: unknown, reader: ConfigReader): ResolvedGuard | false {
  if (value === false) return false;
  if (value === undefined) return resolveGuard({});
  const guard = reader.object(value, '$.loopGuard', [...Object.keys(THRESHOLDS), 'nudge', 'hints']);
  if (guard === undefined) return resolveGuard({});
  const options: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(THRESHOLDS)) {
    if (guard[key] !== undefined) options[key] = reader.number(guard[key], `$.loopGuard.${key}`, rule);
  }
  if (guard.nudge !== undefined) options.nudge = reader.boolean(guard.nudge, '$.loopGuard.nudge');
  if (guard.hints !== undefined) {
    options.hints = reader.map(guard.hints, '$.loopGuard.hints', (entry, path): LoopHints | undefined => {
      const problem = loopHintsProblem(entry);
      if (problem === undefined) return entry as LoopHints;
      reader.problem(path, problem);
      return undefined;
    });
  }
  // Every value is checked (or undefined, its default then): `resolveGuard` cannot throw here.
  return resolveGuard(options as GuardOptions);
}

function readConfirm(value: unknown, reader: ConfigReader): ConfirmConfig | false {
  const fallback: ConfirmConfig = {
    tools: DEFAULT_PROXY_CONFIRM_TOOLS,
    ifNoElicitation: DEFAULT_PROXY_IF_NO_ELICITATION,
  };
  if (value === false) return false;
  if (value === undefined) return fallback;
  const confirm = reader.object(value, '$.confirm', ['tools', 'ifNoElicitation']);
  if (confirm === undefined) return fallback;
  const tools =
    confirm.tools === undefined || confirm.tools === 'destructive'
      ? 'destructive'
      : typeof confirm.tools === 'string'
        ? (reader.oneOf(confirm.tools, '$.confirm.tools', ['destructive']) ?? 'destructive')
        : (reader.names(confirm.tools, '$.confirm.tools', true) ?? []);
  const ifNoElicitation =
    confirm.ifNoElicitation === undefined
      ? fallback.ifNoElicitation
      : (reader.oneOf(confirm.ifNoElicitation, '$.confirm.ifNoElicitation', ['deny', 'allow-and-audit']) ??
        fallback.ifNoElicitation);
  return { tools, ifNoElicitation };
}
