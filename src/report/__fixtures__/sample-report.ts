import { type AuditReport, REPORT_SCHEMA_VERSION, type ToolReport } from '../audit-report.js';

/** A report of a log without MCP proxy screen records. */
export const NO_PROXY_SCREEN: AuditReport['proxy'] = {
  secrets: { blocked: 0, redacted: 0, audited: 0, byRule: [] },
  rateLimited: [],
  toolChanges: [],
};

/** A tool name that is HTML: the page must show it as text, never as an element. */
export const HOSTILE_TOOL = '<img src=x onerror=alert(1)>';
/** A 300-character tool name: it must not push a table or a chart off the page. */
export const LONG_TOOL = `lookup_${'customer_account_history_'.repeat(12)}`.slice(0, 300);

function tool(
  name: string,
  calls: number,
  counts: Pick<ToolReport, 'errors' | 'repeats' | 'contractViolations' | 'limitHits' | 'replays'>,
  [p50, p95, p99, max]: readonly [number, number, number, number],
): ToolReport {
  // Every call refused or replayed did not run; no loop refusals outside an MCP proxy.
  const ran = calls - counts.limitHits - counts.replays;
  return { tool: name, calls, ...counts, loopRefusals: 0, ran, latencyMs: { p50, p95, p99, max } };
}

const TOOLS: readonly ToolReport[] = [
  tool(
    'search_docs',
    1840,
    { errors: 22, repeats: 61, contractViolations: 3, limitHits: 0, replays: 0 },
    [120, 410, 880, 1510],
  ),
  tool(
    'get_order',
    1210,
    { errors: 35, repeats: 18, contractViolations: 12, limitHits: 0, replays: 0 },
    [45, 130, 260, 700],
  ),
  tool(
    'fetch_url',
    760,
    { errors: 74, repeats: 40, contractViolations: 0, limitHits: 9, replays: 0 },
    [380, 1900, 3600, 9000],
  ),
  tool(
    'create_ticket',
    410,
    { errors: 6, repeats: 2, contractViolations: 1, limitHits: 0, replays: 14 },
    [210, 640, 1200, 2300],
  ),
  tool(
    'send_email',
    180,
    { errors: 4, repeats: 0, contractViolations: 0, limitHits: 0, replays: 5 },
    [300, 900, 1500, 2000],
  ),
  tool(
    HOSTILE_TOOL,
    95,
    { errors: 11, repeats: 9, contractViolations: 7, limitHits: 3, replays: 0 },
    [15, 60, 140, 300],
  ),
  tool(
    LONG_TOOL,
    42,
    { errors: 2, repeats: 1, contractViolations: 5, limitHits: 0, replays: 0 },
    [8, 22, 35, 50],
  ),
  tool(
    'refund_payment',
    33,
    { errors: 3, repeats: 0, contractViolations: 0, limitHits: 0, replays: 2 },
    [520, 1400, 2100, 2500],
  ),
  tool(
    '(other tools)',
    30,
    { errors: 1, repeats: 0, contractViolations: 0, limitHits: 0, replays: 0 },
    [30, 90, 150, 200],
  ),
];

/** Calls and repeats per UTC hour: the rate rises at the end, as when a tool's description broke. */
const HOURS: readonly (readonly [string, number, number])[] = [
  ['2026-11-30T08', 310, 5],
  ['2026-11-30T09', 355, 6],
  ['2026-11-30T10', 402, 7],
  ['2026-11-30T11', 420, 8],
  ['2026-11-30T12', 398, 6],
  ['2026-11-30T13', 376, 7],
  ['2026-11-30T14', 390, 9],
  ['2026-11-30T15', 415, 10],
  ['2026-11-30T16', 388, 12],
  ['2026-11-30T17', 372, 16],
  ['2026-11-30T18', 401, 20],
  ['2026-11-30T19', 373, 25],
];

/** 462 finished runs: P50 4, P95 8 (recommended ceiling 10), P99 14, two runs at the ceiling of 50. */
const HISTOGRAM = [
  [2, 40],
  [3, 95],
  [4, 120],
  [5, 88],
  [6, 52],
  [7, 30],
  [8, 18],
  [9, 9],
  [11, 5],
  [14, 3],
  [50, 2],
].map(([rounds = 0, runs = 0]) => ({ rounds, runs }));

const counted = (field: 'repeats' | 'contractViolations' | 'errors' | 'limitHits') =>
  TOOLS.filter((entry) => entry[field] > 0)
    .map((entry) => ({ tool: entry.tool, count: entry[field] }))
    .sort((a, b) => b.count - a.count)
    .slice(0, 10);

/** A realistic report of half a day of traffic (the figures add up: 4,600 calls, 131 repeats, 158 errors). */
export const sampleReport: AuditReport = {
  schemaVersion: REPORT_SCHEMA_VERSION,
  source: 'audit.jsonl',
  records: {
    calls: 4600,
    runs: 469,
    skipped: 3,
    firstSkipped: [1, 2871, 5004],
    from: '2026-11-30T08:02:11.417Z',
    to: '2026-11-30T19:58:40.002Z',
  },
  rounds: {
    runs: 462,
    interrupted: 7,
    histogram: HISTOGRAM,
    p50: 4,
    p95: 8,
    p99: 14,
    max: 50,
    recommendedCeiling: 10,
    minRunsForCeiling: 30,
    configuredCeilings: [
      { maxRoundTrips: 50, runs: 400 },
      { maxRoundTrips: 20, runs: 62 },
    ],
    atCeiling: 2,
  },
  repeats: {
    calls: 4600,
    repeated: 131,
    rate: 131 / 4600,
    granularity: 'hour',
    overTime: HOURS.map(([period, calls, repeated]) => ({ period, calls, repeated, rate: repeated / calls })),
  },
  tools: TOOLS,
  top: {
    byRepeats: counted('repeats'),
    byContractViolations: counted('contractViolations'),
    byErrors: counted('errors'),
  },
  stops: {
    rate: 21 / 462,
    byReason: [
      { reason: 'LOOP_DETECTED', runs: 9 },
      { reason: 'TOOL_CALL_LIMIT', runs: 4 },
      { reason: 'BUDGET_EXHAUSTED', runs: 3 },
      { reason: 'MAX_ROUND_TRIPS', runs: 2 },
      { reason: 'ABORTED', runs: 2 },
      { reason: 'MODEL_ERROR', runs: 1 },
    ],
  },
  limitHits: counted('limitHits'),
  loopRefusals: [],
  errors: {
    rate: 158 / 4600,
    byClass: [
      { errorClass: 'transient', calls: 81 },
      { errorClass: 'invalid-input', calls: 52 },
      { errorClass: 'denied', calls: 14 },
      { errorClass: 'fatal', calls: 6 },
      { errorClass: 'aborted', calls: 5 },
    ],
    byCode: [
      { code: 'TOOL_UNAVAILABLE', calls: 63 },
      { code: 'INVALID_ARGUMENTS', calls: 38 },
      { code: 'TOOL_ERROR', calls: 18 },
      { code: 'PERMISSION_DENIED', calls: 14 },
      { code: 'TOOL_CALL_LIMIT', calls: 12 },
      { code: 'INVALID_JSON', calls: 8 },
      { code: 'OUTCOME_UNKNOWN', calls: 5 },
    ],
  },
  approvals: { approved: 11, refused: 3, unconfirmed: 0, denied: 14, replays: 21 },
  usage: { inputTokens: 1_843_220, outputTokens: 212_904, totalTokens: 2_056_124 },
  proxy: NO_PROXY_SCREEN,
};

/** A log with nothing in it (or only skipped lines): no runs, no calls. */
export const emptyReport: AuditReport = {
  schemaVersion: REPORT_SCHEMA_VERSION,
  source: 'empty.jsonl',
  records: { calls: 0, runs: 0, skipped: 0, firstSkipped: [] },
  rounds: {
    runs: 0,
    interrupted: 0,
    histogram: [],
    p50: null,
    p95: null,
    p99: null,
    max: null,
    recommendedCeiling: null,
    minRunsForCeiling: 30,
    configuredCeilings: [],
    atCeiling: 0,
  },
  repeats: { calls: 0, repeated: 0, rate: 0, granularity: 'hour', overTime: [] },
  tools: [],
  top: { byRepeats: [], byContractViolations: [], byErrors: [] },
  stops: { rate: 0, byReason: [] },
  limitHits: [],
  loopRefusals: [],
  errors: { rate: 0, byClass: [], byCode: [] },
  approvals: { approved: 0, refused: 0, unconfirmed: 0, denied: 0, replays: 0 },
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  proxy: NO_PROXY_SCREEN,
};
