import { AUDIT_SCHEMA_VERSION } from '../audit/audit-record.js';
import { DECIDED_BY_CONFIG } from '../audit/proxy-decided-by.js';
import { ALL_ERROR_CLASSES, type ErrorClass } from '../core/error-class.js';
import type { ProxyScreenReport } from './audit-report.js';

/** The fields of a call record the report reads, checked. */
export interface ReportCall {
  readonly kind: 'call';
  readonly at: string;
  readonly runId: string | undefined;
  readonly toolName: string;
  readonly digest: string | undefined;
  readonly outcome: 'success' | ErrorClass;
  /** The record's code; for an older proxy record of a loop refusal (no code), read from its text. */
  readonly code: string | undefined;
  readonly durationMs: number;
  /** False when the tool never ran (`attempts: 0`: refused before it, or replayed): no latency to count. */
  readonly ran: boolean;
  readonly replay: boolean;
  /**
   * A decision on the call: a person's (`approved`, `denied`), or none although one was needed: the MCP
   * proxy ran it unconfirmed under `allow-and-audit` (`unconfirmed`).
   */
  readonly approval: 'approved' | 'denied' | 'unconfirmed' | undefined;
  readonly contractViolation: boolean;
  /** Secrets the MCP proxy found in the call: the action and rules of each direction, as checked. */
  readonly secrets?: readonly { readonly action: string; readonly rules: readonly string[] }[];
}

/** A change of a pinned tool definition the MCP proxy saw (`kind: "tool-definition"`), checked. */
export type ReportToolChange = {
  readonly kind: 'tool-definition';
} & ProxyScreenReport['toolChanges'][number];

/** The fields of a run record the report reads, checked. */
export interface ReportRun {
  readonly kind: 'run';
  readonly at: string;
  readonly runId: string;
  readonly outcome: 'completed' | 'stopped' | 'interrupted';
  readonly stopReason: string | undefined;
  readonly roundTrips: number;
  readonly maxRoundTrips: number | undefined;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

export type ReportInput = ReportCall | ReportRun | ReportToolChange;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
/** A code of the code table's form (`TOOL_ERROR`), which a stop reason is too since version 2. */
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** A stop reason as version 1 wrote it: the kebab-case of its code. */
const KEBAB_CASE = /^[a-z][a-z0-9-]{0,63}$/;
const RUN_OUTCOMES: ReadonlySet<unknown> = new Set(['completed', 'stopped', 'interrupted']);
const CALL_OUTCOMES: ReadonlySet<unknown> = new Set(['success', ...ALL_ERROR_CLASSES]);

/**
 * One line (or row) of an audit log, as the report reads it; undefined when it is not a record of a schema
 * version it reads (1 or 2) or a field the report uses has the wrong type. The text is the operator's file,
 * but it may hold anything a model wrote (tool names), so nothing is trusted beyond its checked type.
 */
export function parseReportInput(text: string): ReportInput | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const version = record.schemaVersion;
  if (version !== AUDIT_SCHEMA_VERSION && version !== 1) return undefined;
  const at = record.at;
  if (typeof at !== 'string' || !ISO_UTC.test(at)) return undefined;
  if (record.kind === 'call') return callOf(record, at);
  if (record.kind === 'run') return runOf(record, at, version);
  if (record.kind === 'tool-definition') return toolChangeOf(record, at);
  return undefined;
}

function callOf(record: Record<string, unknown>, at: string): ReportCall | undefined {
  const { toolName, outcome, durationMs, code, runId, argumentsDigest, approval, attempts } = record;
  if (typeof toolName !== 'string' || !CALL_OUTCOMES.has(outcome)) return undefined;
  if (!isCount(durationMs, false)) return undefined;
  if (code !== undefined && (typeof code !== 'string' || !CODE.test(code))) return undefined;
  if (runId !== undefined && typeof runId !== 'string') return undefined;
  if (approval !== undefined && approval !== 'approved' && approval !== 'denied') return undefined;
  return {
    kind: 'call',
    at,
    runId,
    toolName,
    digest: typeof argumentsDigest === 'string' && argumentsDigest !== '' ? argumentsDigest : undefined,
    outcome: outcome as ReportCall['outcome'],
    code: code ?? loopCodeOf(outcome, record.denialReason),
    durationMs,
    // A record without a readable count is taken as a call that ran: its duration is what it says.
    ran: attempts !== 0,
    replay: record.replay === true,
    approval: approval === 'approved' && record.decidedBy === DECIDED_BY_CONFIG ? 'unconfirmed' : approval,
    contractViolation: record.contractViolation === true,
    ...secretsOf(record.secrets),
  };
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const SECRET_ACTIONS: ReadonlySet<unknown> = new Set(['blocked', 'redacted', 'audited']);
const CHANGE_OUTCOMES: ReadonlySet<unknown> = new Set(['refused', 'flagged', 'approved']);
/** A rule's name as the proxy writes it: a redaction marker's kind. */
const RULE = /^[a-z]{1,32}$/;

/** The proxy's secret findings of a call record; what is not of their shape is left out. */
function secretsOf(value: unknown): Pick<ReportCall, 'secrets'> {
  if (!Array.isArray(value)) return {};
  const secrets = value.slice(0, 2).flatMap((entry: unknown) => {
    const { action, rules } = (entry ?? {}) as { action?: unknown; rules?: unknown };
    if (!SECRET_ACTIONS.has(action) || !Array.isArray(rules)) return [];
    const named = rules.filter((rule): rule is string => typeof rule === 'string' && RULE.test(rule));
    return [{ action: action as string, rules: named.slice(0, 8) }];
  });
  return secrets.length === 0 ? {} : { secrets };
}

function toolChangeOf(record: Record<string, unknown>, at: string): ReportToolChange | undefined {
  const { server, toolName, outcome, digest, pinnedDigest } = record;
  if (typeof server !== 'string' || typeof toolName !== 'string' || !CHANGE_OUTCOMES.has(outcome))
    return undefined;
  if (typeof digest !== 'string' || !DIGEST.test(digest)) return undefined;
  if (typeof pinnedDigest !== 'string' || !DIGEST.test(pinnedDigest)) return undefined;
  return {
    kind: 'tool-definition',
    at,
    server,
    tool: toolName,
    outcome: outcome as ReportToolChange['outcome'],
    digest,
    pinnedDigest,
  };
}

/** Proxy records written before refusals carried every code gave a loop refusal's only in its text. */
function loopCodeOf(outcome: unknown, denialReason: unknown): string | undefined {
  return outcome === 'denied' && typeof denialReason === 'string' && denialReason.startsWith('LOOP_DETECTED:')
    ? 'LOOP_DETECTED'
    : undefined;
}

function runOf(record: Record<string, unknown>, at: string, version: number): ReportRun | undefined {
  const { runId, outcome, roundTrips, maxRoundTrips, usage } = record;
  if (typeof runId !== 'string' || !RUN_OUTCOMES.has(outcome) || !isCount(roundTrips, true)) return undefined;
  const stopReason = stopReasonOf(record.stopReason, version);
  if (stopReason === null) return undefined;
  if (maxRoundTrips !== undefined && !isCount(maxRoundTrips, true)) return undefined;
  const tokens = typeof usage === 'object' && usage !== null ? (usage as Record<string, unknown>) : {};
  const count = (field: unknown) => (isCount(field, true) ? field : 0);
  return {
    kind: 'run',
    at,
    runId,
    outcome: outcome as ReportRun['outcome'],
    stopReason: outcome === 'stopped' ? stopReason : undefined,
    roundTrips,
    maxRoundTrips,
    inputTokens: count(tokens.inputTokens),
    outputTokens: count(tokens.outputTokens),
    totalTokens: count(tokens.totalTokens),
  };
}

/**
 * A run record's stop reason as a code; null when it is not one. Version 1 wrote the code in kebab-case
 * (lower case, dashes for underscores), read here as the code it spells.
 */
function stopReasonOf(value: unknown, version: number): string | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return null;
  if (version !== 1) return CODE.test(value) ? value : null;
  return KEBAB_CASE.test(value) ? value.toUpperCase().replaceAll('-', '_') : null;
}

/** A finite number at or above 0 (an integer when `integer`), below 2^53. */
function isCount(value: unknown, integer: boolean): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= 0 &&
    value <= Number.MAX_SAFE_INTEGER &&
    (!integer || Number.isInteger(value))
  );
}
