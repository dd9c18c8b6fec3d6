import {
  DEFAULT_PROXY_CONFIRM_TOOLS,
  DEFAULT_PROXY_IF_NO_ELICITATION,
  DEFAULT_PROXY_MAX_CALLS_PER_SESSION,
  DEFAULT_PROXY_MAX_CALLS_PER_TOOL,
  DEFAULT_PROXY_REDACT_ERRORS,
  DEFAULT_PROXY_TELEMETRY,
  DEFAULT_PROXY_TRUST_ANNOTATIONS,
  DEFAULT_TIMEOUT_MS,
} from '../../../core/defaults.js';
import type { ConfigReader } from '../../../options/config-reader.js';
import { readGuardConfig } from '../../../run/read-guard-config.js';
import type { ConfirmConfig, ProxyConfig } from './proxy-config-types.js';
import { readPins, readRateLimits, readSecrets } from './read-proxy-security.js';
import { readAuth, readSeparator, readServers, readUpstream } from './read-proxy-servers.js';
import { readAudit, readIdempotentWrites, readOutputContracts } from './read-proxy-stores.js';

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
  'servers',
  'namespaceSeparator',
  'auth',
  'secrets',
  'pins',
  'rateLimits',
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
    loopGuard: readGuardConfig(top.loopGuard, reader, '$.loopGuard'),
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
    servers: readServers(top.servers, reader),
    namespaceSeparator: readSeparator(top.namespaceSeparator, reader),
    auth: readAuth(top.auth, reader),
    secrets: readSecrets(top.secrets, reader),
    pins: readPins(top.pins, reader),
    rateLimits: readRateLimits(top.rateLimits, reader),
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
