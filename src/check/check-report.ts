/** How much a finding matters: an `error` fails the check (exit code 1), a `warning` does not. */
export type CheckSeverity = 'error' | 'warning';

/** A tool's verdict: `fail` with any error, else `warn` with any warning, else `pass`. */
export type CheckStatus = 'pass' | 'warn' | 'fail';

/** The providers' strict modes `checkTools` can hold input schemas to (`strict`): OpenAI's, for now. */
export type StrictMode = 'openai';

/** Stable codes of what `toolwarden check` can find, for programs (CI annotations, dashboards). */
export type CheckFindingCode =
  // The module as a whole.
  | 'NO_TOOLS'
  | 'UNCAUGHT_ERROR'
  // An export that cannot be looked at (a revoked Proxy): a warning, the other exports are checked.
  | 'EXPORT_UNREADABLE'
  // `toolwarden check` stopped before the end (an example ran past the hard time limit, or the process
  // running the check ended): the report holds the tools checked until then.
  | 'CHECK_INCOMPLETE'
  // The definition.
  | 'DEFINITION_INVALID'
  | 'NAME_ILLEGAL'
  | 'NAME_DUPLICATE'
  | 'DESCRIPTION_MISSING'
  | 'INPUT_SCHEMA_INVALID'
  | 'INPUT_NOT_OBJECT'
  | 'INPUT_SCHEMA_UNAVAILABLE'
  | 'OUTPUT_SCHEMA_INVALID'
  | 'NOTHING_TO_CHECK'
  | 'NO_EXAMPLES'
  | 'NO_OUTPUT_SCHEMA'
  // OpenAI strict mode, checked only when asked (`--strict openai`): errors, since OpenAI rejects the tool.
  | 'STRICT_ADDITIONAL_PROPERTIES'
  | 'STRICT_OPTIONAL_PROPERTY'
  | 'STRICT_UNSUPPORTED_KEYWORD'
  | 'STRICT_UNSUPPORTED_FORMAT'
  | 'STRICT_LIMIT'
  // The examples.
  | 'EXAMPLE_INVALID'
  | 'EXAMPLE_INPUT_INVALID'
  | 'EXAMPLE_OUTPUT_INVALID'
  | 'EXAMPLE_THREW'
  | 'EXAMPLE_TIMEOUT'
  | 'EXAMPLE_CONTRACT_VIOLATION'
  | 'EXAMPLE_OUTPUT_MISMATCH'
  | 'VALIDATOR_FAILED'
  | 'RESULT_NOT_SERIALIZABLE'
  | 'FORMAT_FAILED'
  | 'FORMAT_NOT_DETERMINISTIC';

/** One problem the check found with a tool, or with the module that exports them. */
export interface CheckFinding {
  /** An error fails the check; a warning does not. */
  readonly severity: CheckSeverity;
  /** What kind of problem, stable across versions. */
  readonly code: CheckFindingCode;
  /** For people: what is wrong, where, and (when it helps) how to fix it. */
  readonly message: string;
  /** The example it is about: its `name`, or `#1`, `#2`... by position. */
  readonly example?: string;
}

/** What the check found for one tool: its status, findings and the examples it ran. */
export interface ToolCheck {
  /** The tool's name (as declared, even when illegal; `(unnamed)` when there is none). */
  readonly name: string;
  /** Where the tool came from in the module (`queryOrderStatus`, `default`, `tools[2]`), when known. */
  readonly exportName?: string;
  /** `fail` with an error, `warn` with a warning only, else `pass`. */
  readonly status: CheckStatus;
  /** Errors first, then warnings, each in the order they were found. */
  readonly findings: readonly CheckFinding[];
  /** Examples that ran to a verdict (passed or failed). */
  readonly examplesRun: number;
  /**
   * Examples whose `execute` was not run (their labels): the tool's effect is not `read` and writes were
   * not asked for (`runWrites`). Their input and expected output were still checked against the schemas.
   */
  readonly skippedExamples: readonly string[];
  /** Why those examples were not run; set when `skippedExamples` is not empty. */
  readonly skipReason?: string;
}

/** What `checkTools` returns: a plain value, rendered by `renderCheckText`, `renderCheckJson`, `renderCheckJunit`. */
export interface CheckReport {
  /** What was checked (the module path as given), for the report's title. */
  readonly module: string;
  /** The worst status of the module's findings and its tools. */
  readonly status: CheckStatus;
  /** Tools by status, and the examples not run. */
  readonly summary: {
    readonly tools: number;
    readonly passed: number;
    readonly warned: number;
    readonly failed: number;
    /** Examples not run, over every tool (see `ToolCheck.skippedExamples`). */
    readonly examplesSkipped: number;
  };
  /** Problems of the module rather than of one tool (no tools, a definition that threw at import). */
  readonly moduleFindings: readonly CheckFinding[];
  /** One check per tool, in the order they were given. */
  readonly tools: readonly ToolCheck[];
}

export function statusOf(findings: readonly CheckFinding[]): CheckStatus {
  if (findings.some((f) => f.severity === 'error')) return 'fail';
  return findings.length > 0 ? 'warn' : 'pass';
}

/** Orders findings (errors first, stable otherwise) and derives the tool's status. */
export function toolCheck(
  entry: {
    name: string;
    exportName: string | undefined;
    examplesRun: number;
    skippedExamples?: readonly string[];
    skipReason?: string | undefined;
  },
  findings: readonly CheckFinding[],
): ToolCheck {
  const skipped = entry.skippedExamples ?? [];
  const ordered = [
    ...findings.filter((f) => f.severity === 'error'),
    ...findings.filter((f) => f.severity === 'warning'),
  ];
  return {
    name: entry.name,
    ...(entry.exportName === undefined ? {} : { exportName: entry.exportName }),
    status: statusOf(ordered),
    findings: ordered,
    examplesRun: entry.examplesRun,
    skippedExamples: [...skipped],
    ...(skipped.length === 0 || entry.skipReason === undefined ? {} : { skipReason: entry.skipReason }),
  };
}

/** Builds a report, computing the summary and the overall status. */
export function createCheckReport(parts: {
  module: string;
  tools: readonly ToolCheck[];
  moduleFindings?: readonly CheckFinding[];
}): CheckReport {
  const moduleFindings = parts.moduleFindings ?? [];
  const count = (status: CheckStatus) => parts.tools.filter((t) => t.status === status).length;
  const statuses = [statusOf(moduleFindings), ...parts.tools.map((t) => t.status)];
  return {
    module: parts.module,
    status: statuses.includes('fail') ? 'fail' : statuses.includes('warn') ? 'warn' : 'pass',
    summary: {
      tools: parts.tools.length,
      passed: count('pass'),
      warned: count('warn'),
      failed: count('fail'),
      examplesSkipped: parts.tools.reduce((sum, tool) => sum + tool.skippedExamples.length, 0),
    },
    moduleFindings,
    tools: parts.tools,
  };
}

/** The same report with more module-level findings (for example errors thrown outside any example). */
export function withModuleFindings(report: CheckReport, findings: readonly CheckFinding[]): CheckReport {
  if (findings.length === 0) return report;
  return createCheckReport({
    module: report.module,
    tools: report.tools,
    moduleFindings: [...report.moduleFindings, ...findings],
  });
}
