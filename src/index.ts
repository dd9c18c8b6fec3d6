export {
  type BfclAnswerVariant,
  type BfclFunction,
  type BfclLanguage,
  type BfclNote,
  type BfclRule,
  type BfclSchema,
  type BfclToolSpec,
  expandBfclAnswer,
  fromBfclFunction,
  fromBfclFunctions,
  type NormalizeBfclSchemaOptions,
  type NormalizedBfclSchema,
  normalizeBfclSchema,
  type ReadBfclFunctionOptions,
  readBfclFunction,
} from './bfcl/index.js';
export type { CallLimits } from './chain/call-limits.js';
export { classifyError, type ErrorClassifier } from './chain/classify-error.js';
export type { ErrorClass } from './chain/error-class.js';
export {
  type ExecuteToolCallsInput,
  type ExecutionRequest,
  executeToolCalls,
} from './chain/execute-tool-calls.js';
export type { ToolExecutionPolicy } from './chain/execution-policy.js';
export { parseArguments } from './chain/parse-arguments.js';
export {
  createToolCallingManager,
  type ToolCallingManager,
} from './chain/tool-calling-manager.js';
export type { ToolEvent, ToolEventListener } from './chain/tool-event.js';
export type {
  ToolCallFailure,
  ToolCallResult,
  ToolCallSuccess,
  ToolErrorCode,
  ToolExecutionResult,
} from './chain/tool-execution-result.js';
export type { CheckFinding, CheckReport, CheckStatus, ToolCheck } from './check/check-report.js';
export { type CheckOptions, checkTools } from './check/check-tools.js';
export { renderCheckJson } from './check/render-check-json.js';
export { renderCheckJunit } from './check/render-check-junit.js';
export { renderCheckText } from './check/render-check-text.js';
export * as defaults from './defaults.js';
export { CallbackError } from './errors/callback-error.js';
export { ContractViolationError } from './errors/contract-violation-error.js';
export { FatalToolError } from './errors/fatal-tool-error.js';
export { InvalidOptionsError } from './errors/invalid-options-error.js';
export { LoopStoppedError } from './errors/loop-stopped-error.js';
export { NoToolCallError } from './errors/no-tool-call-error.js';
export { PermissionDeniedError } from './errors/permission-denied-error.js';
export { ResultSerializationError } from './errors/result-serialization-error.js';
export { RunStateError } from './errors/run-state-error.js';
export { ToolCallLimitExceededError } from './errors/tool-call-limit-exceeded-error.js';
export { ToolDefinitionError } from './errors/tool-definition-error.js';
export { ToolExecutionError } from './errors/tool-execution-error.js';
export { ToolInputError } from './errors/tool-input-error.js';
export { ToolTimeoutError } from './errors/tool-timeout-error.js';
export { ToolwardenError } from './errors/toolwarden-error.js';
export { TransientToolError } from './errors/transient-tool-error.js';
export { UnknownToolError } from './errors/unknown-tool-error.js';
export {
  type AnthropicTool,
  createToolNameMap,
  fromAnthropicTool,
  fromAnthropicTools,
  fromMcpTool,
  fromMcpTools,
  fromOpenAiTool,
  fromOpenAiTools,
  type ImportedToolHandler,
  type ImportedToolSettings,
  type ImportedToolSpec,
  type ImportedTools,
  type ImportToolOptions,
  type ImportToolsOptions,
  importToolSpec,
  importToolSpecs,
  MAX_ORIGINAL_TOOL_NAME_LENGTH,
  MAX_SCHEMA_DEPTH,
  type McpTool,
  type McpToolAnnotations,
  type OpenAiTool,
  readAnthropicTool,
  readMcpTool,
  readOpenAiTool,
  type ToMcpToolOptions,
  type ToOpenAiToolOptions,
  type ToolFormat,
  ToolFormatError,
  type ToolFormatErrorOptions,
  type ToolNameMap,
  toAnthropicTool,
  toMcpTool,
  toOpenAiTool,
} from './formats/index.js';
export type { LoopThresholds } from './guard/detect-loops.js';
export { callFingerprint, resultFingerprint } from './guard/fingerprint.js';
export type { GuardState, LoopDetector, LoopEvidence } from './guard/guard-types.js';
export type {
  AssistantMessage,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './messages/message.js';
export type { Model, ModelRequest, ModelResponse, TokenUsage, ToolSpec } from './model/model.js';
export { redact, redactForModel } from './redact/redact.js';
export type {
  ModelCallWrapper,
  ResumeLoopOptions,
  RunOptions,
  StopInfo,
  ToolLoopOptions,
} from './run/loop-options.js';
export type { LoopOutcome, LoopStep, LoopUsage, StopEvidence, StopReason } from './run/loop-outcome.js';
export { restoreRunState } from './run/restore-run-state.js';
export { resumeToolLoop } from './run/resume-tool-loop.js';
export type { RunEvent, RunEventListener, StepCallSummary } from './run/run-event.js';
export {
  createRunState,
  type PendingCall,
  RUN_STATE_SCHEMA_VERSION,
  type RunState,
} from './run/run-state.js';
export { runToolLoop } from './run/run-tool-loop.js';
export {
  costBudget,
  type GuardOptions,
  loopGuard,
  maxRoundTrips,
  type StopCondition,
  type StopContext,
  stopIf,
  timeBudget,
  tokenBudget,
} from './run/stop-conditions.js';
export { streamToolLoop } from './run/stream-tool-loop.js';
export type { JsonSchema } from './schema/json-schema.js';
export { createSchemaCompiler, type SchemaCompiler } from './schema/schema-compiler.js';
export type { ValidationIssue } from './schema/validation-issue.js';
export { serializeValue } from './serialize/serialize-value.js';
export type { GuardStore } from './session/guard-store.js';
export {
  type AnyTool,
  defineTool,
  type Tool,
  type ToolDefinition,
  type ToolEffect,
} from './tools/define-tool.js';
export type { ToolContext } from './tools/tool-context.js';
export { createToolRegistry, type ToolRegistry } from './tools/tool-registry.js';
