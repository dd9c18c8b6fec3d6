import type { ErrorClass } from '../core/error-class.js';
import type { LoopUsage } from '../core/loop-outcome.js';

/** Version of the report's JSON shape (`toolwarden report --json`). */
export const REPORT_SCHEMA_VERSION = 1;

/**
 * What `toolwarden report` says of an audit log: where to set the ceiling, how often the model repeats
 * itself, which tools to look at, and why runs stopped. Plain JSON; every list is sorted as printed.
 */
export interface AuditReport {
  /** The report shape's version (`REPORT_SCHEMA_VERSION`). */
  readonly schemaVersion: typeof REPORT_SCHEMA_VERSION;
  /** The audit log's file name (no folder). */
  readonly source: string;
  /** What the log held. */
  readonly records: ReportRecords;
  /** Model calls per run, and the ceiling they recommend. */
  readonly rounds: RoundsReport;
  /** The repeated-fingerprint hit rate. */
  readonly repeats: RepeatsReport;
  /** Every tool seen, most calls first (at most `DEFAULT_REPORT_MAX_TOOLS`, the rest as `(other tools)`). */
  readonly tools: readonly ToolReport[];
  /** The lists for the quarterly review: at most 10 tools each, with a count above 0. */
  readonly top: {
    readonly byRepeats: readonly ToolCount[];
    readonly byContractViolations: readonly ToolCount[];
    readonly byErrors: readonly ToolCount[];
  };
  /** Why runs stopped. */
  readonly stops: StopsReport;
  /** Calls refused by a call limit (`TOOL_CALL_LIMIT`), by tool, most first. */
  readonly limitHits: readonly ToolCount[];
  /** Calls the MCP proxy refused because the loop guard had stopped them (`LOOP_DETECTED`), by tool, most first. */
  readonly loopRefusals: readonly ToolCount[];
  /** Failed calls, by class and code. */
  readonly errors: ErrorsReport;
  /** Calls decided by a person or a policy. */
  readonly approvals: ApprovalsReport;
  /** Tokens over the finished runs. */
  readonly usage: LoopUsage;
  /** What the MCP proxy's screen did: secrets found, calls over a rate limit, tool definitions changed. */
  readonly proxy: ProxyScreenReport;
}

/** The MCP proxy's secrets, rate limits and pinned tool definitions, as its records tell them. */
export interface ProxyScreenReport {
  /** Calls with a secret found, by what the proxy did (a call with secrets both ways counts in each). */
  readonly secrets: {
    readonly blocked: number;
    readonly redacted: number;
    readonly audited: number;
    /** By the rule that matched (`key`, `jwt`, `secret`), most first. */
    readonly byRule: readonly { readonly rule: string; readonly calls: number }[];
  };
  /** Calls refused `RATE_LIMITED`, by tool, most first. */
  readonly rateLimited: readonly ToolCount[];
  /** Tool definitions seen changed since pinned: the latest record of each tool and digest, newest first (at most 50). */
  readonly toolChanges: readonly {
    readonly at: string;
    readonly server: string;
    readonly tool: string;
    readonly outcome: 'refused' | 'flagged' | 'approved';
    readonly digest: string;
    readonly pinnedDigest: string;
  }[];
}

/** What the log held: call and run records, and the lines or rows that were not records. */
export interface ReportRecords {
  /** Call records. */
  readonly calls: number;
  /** Run records, the parts that paused for an approval included. */
  readonly runs: number;
  /** Lines or rows that were not an audit record of a known version (not JSON, another schema version). */
  readonly skipped: number;
  /** The first skipped lines (1-based; rows for SQLite), at most 10. */
  readonly firstSkipped: readonly number[];
  /** ISO 8601 of the earliest record. */
  readonly from?: string;
  /** ISO 8601 of the latest record. */
  readonly to?: string;
}

/** Model calls per finished run, their percentiles, and the ceiling they recommend. */
export interface RoundsReport {
  /** Finished runs (completed or stopped): a run that paused counts once, when it ends. */
  readonly runs: number;
  /** Run parts that paused to wait for an approval. */
  readonly interrupted: number;
  /** Runs by the model calls they took, ascending: exact counts. */
  readonly histogram: readonly { readonly rounds: number; readonly runs: number }[];
  /** Nearest-rank percentiles of the rounds per finished run; null with no finished run. */
  readonly p50: number | null;
  /** Nearest-rank P95 of the rounds per finished run; null with none. */
  readonly p95: number | null;
  /** Nearest-rank P99; null with none. */
  readonly p99: number | null;
  /** The most rounds a finished run took; null with none. */
  readonly max: number | null;
  /**
   * P95 + 2: the ceiling (`maxRoundTrips`) the playbook recommends, from `runs` finished runs; null with
   * fewer than `minRunsForCeiling` (too few for a P95 to rest on).
   */
  readonly recommendedCeiling: number | null;
  /** The finished runs a recommended ceiling needs (`MIN_RUNS_FOR_CEILING`). */
  readonly minRunsForCeiling: number;
  /** The ceilings the runs had (`maxRoundTrips`), most runs first; empty when the records do not say. */
  readonly configuredCeilings: readonly { readonly maxRoundTrips: number; readonly runs: number }[];
  /** Finished runs that reached their ceiling (stopped as `MAX_ROUND_TRIPS`). */
  readonly atCeiling: number;
}

/** How often a call repeats an earlier call of its run, overall and over time. */
export interface RepeatsReport {
  /** Calls of a run (a record with a run id and an argument digest). */
  readonly calls: number;
  /** Calls whose tool and arguments (the digest) an earlier call of the same run already had. */
  readonly repeated: number;
  /** repeated / calls; 0 with no calls. */
  readonly rate: number;
  /** By UTC hour, or by UTC day when the log spans more than two days; oldest first. */
  readonly granularity: 'hour' | 'day';
  /** The same figures per period. */
  readonly overTime: readonly {
    /** `2026-12-01T15` (hour) or `2026-12-01` (day). */
    readonly period: string;
    readonly calls: number;
    readonly repeated: number;
    readonly rate: number;
  }[];
}

/** One tool's calls: failures, repeats, refusals, replays and latency. */
export interface ToolReport {
  /** The tool's name (or `(other tools)`). */
  readonly tool: string;
  /** All its calls. */
  readonly calls: number;
  /** Calls whose outcome was not a success. */
  readonly errors: number;
  /** Calls repeating an earlier call of their run. */
  readonly repeats: number;
  /** Results that broke its output contract. */
  readonly contractViolations: number;
  /** Calls refused by a call limit. */
  readonly limitHits: number;
  /** Calls refused by the MCP proxy's loop guard (`LOOP_DETECTED`). */
  readonly loopRefusals: number;
  /** Writes answered from their idempotency record. */
  readonly replays: number;
  /** Calls that ran (`attempts` above 0): the latency is theirs, not that of refused or replayed calls. */
  readonly ran: number;
  /** Duration percentiles (ms) of the calls that ran, within 1% (a log-bucket sketch keeps memory bounded). */
  readonly latencyMs: LatencyPercentiles;
}

/** Each null when no call of the tool ran (every one refused before it ran, or replayed). */
export interface LatencyPercentiles {
  /** Median duration (ms). */
  readonly p50: number | null;
  /** P95 duration (ms). */
  readonly p95: number | null;
  /** P99 duration (ms). */
  readonly p99: number | null;
  /** Longest duration (ms). */
  readonly max: number | null;
}

/** A tool and how many calls of one kind it had. */
export interface ToolCount {
  /** The tool's name. */
  readonly tool: string;
  /** How many calls. */
  readonly count: number;
}

/** How often finished runs stopped, and why. */
export interface StopsReport {
  /** Finished runs that stopped (did not complete), over all finished runs; 0 with none. */
  readonly rate: number;
  /** Stopped runs by reason (`LOOP_DETECTED`, `MAX_ROUND_TRIPS`, ...), most first. */
  readonly byReason: readonly { readonly reason: string; readonly runs: number }[];
}

/** How often calls failed, by error class and by code. */
export interface ErrorsReport {
  /** Calls that did not succeed, over all calls; 0 with no calls. */
  readonly rate: number;
  /** Failed calls by error class, most first. */
  readonly byClass: readonly { readonly errorClass: ErrorClass; readonly calls: number }[];
  /** Codes as the records give them (`TOOL_ERROR`, `INVALID_ARGUMENTS`, ...: see the code table in docs/reference.md). */
  readonly byCode: readonly { readonly code: string; readonly calls: number }[];
}

/** Calls that a person or a policy decided on, and writes replayed. */
export interface ApprovalsReport {
  /** Calls a person approved: on resume, or asked through MCP elicitation by the proxy. */
  readonly approved: number;
  /** Calls a person refused: on resume, or asked through MCP elicitation. */
  readonly refused: number;
  /**
   * Calls that needed a confirmation and ran without one: the MCP client could not be asked, and the
   * proxy's `confirm.ifNoElicitation` is `allow-and-audit`. Never counted as approved.
   */
  readonly unconfirmed: number;
  /**
   * Calls denied by a policy, no person asked: a `decide` hook, the proxy's `deny` list or a
   * confirmation it could not ask (outcome `denied`; limit and loop refusals are counted by their codes).
   */
  readonly denied: number;
  /** Writes answered from their idempotency record. */
  readonly replays: number;
}
