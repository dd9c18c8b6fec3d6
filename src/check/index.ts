export { DEFAULT_EXAMPLE_TIMEOUT_MS } from '../defaults.js';
export { checkOpenAiStrict } from './check-openai-strict.js';
export { checkProviderRules } from './check-provider-rules.js';
export type {
  CheckFinding,
  CheckFindingCode,
  CheckReport,
  CheckSeverity,
  CheckStatus,
  ToolCheck,
} from './check-report.js';
export { type CheckOptions, checkTools } from './check-tools.js';
export {
  type AnyToolDefinition,
  type CheckTarget,
  type CollectedTools,
  collectTools,
  isTool,
  isToolDefinition,
} from './collect-tools.js';
export { escapeXml } from './escape-xml.js';
export { loadToolModule } from './load-tool-module.js';
export { CHECK_REPORT_VERSION, renderCheckJson } from './render-check-json.js';
export { renderCheckJunit } from './render-check-junit.js';
export { renderCheckText } from './render-check-text.js';
export { ToolModuleError, type ToolModuleProblem } from './tool-module-error.js';
