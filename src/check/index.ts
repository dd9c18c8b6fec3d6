// toolwarden/check: checks tools against their contracts (what `toolwarden check` runs), and renders the report.
export type {
  CheckFinding,
  CheckFindingCode,
  CheckReport,
  CheckSeverity,
  CheckStatus,
  StrictMode,
  ToolCheck,
} from './check-report.js';
export { type CheckOptions, checkTools } from './check-tools.js';
export type { AnyToolDefinition, CheckTarget } from './collect-tools.js';
export { CHECK_REPORT_VERSION, renderCheckJson } from './render-check-json.js';
export { renderCheckJunit } from './render-check-junit.js';
export { renderCheckText } from './render-check-text.js';
