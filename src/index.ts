export type { LimitScope } from './chain/call-limits.js';
export { forgetIdempotencyRecord } from './chain/idempotency/forget-idempotency-record.js';
export type { PendingCall } from './chain/pending-call.js';
export type { ToolExecutionPolicy } from './chain/policy.js';
export type { ResumeDecision } from './chain/resume-decision.js';
export {
  createToolRuntime,
  type Decisions,
  type ToolCallOutcome,
  type ToolRuntime,
  type ToolRuntimeOptions,
} from './chain/runtime.js';
/** Every default that changes behaviour, by name: each constant says what it bounds and why. */
export * as defaults from './core/defaults.js';
export type { ErrorClass } from './core/error-class.js';
export { ApprovalError } from './core/errors/approval-error.js';
export { CallbackError } from './core/errors/callback-error.js';
export {
  type Blame,
  ERROR_CODES,
  type ToolwardenCode,
} from './core/errors/error-codes.js';
export { FatalToolError } from './core/errors/fatal-tool-error.js';
export { InvalidOptionsError } from './core/errors/invalid-options-error.js';
export { LoopStoppedError } from './core/errors/loop-stopped-error.js';
export { PermissionDeniedError } from './core/errors/permission-denied-error.js';
export { RunStateError } from './core/errors/run-state-error.js';
export { StoreError } from './core/errors/store-error.js';
export { ToolCallLimitExceededError } from './core/errors/tool-call-limit-exceeded-error.js';
export { ToolDefinitionError } from './core/errors/tool-definition-error.js';
export { ToolExecutionError } from './core/errors/tool-execution-error.js';
export { ToolInputError } from './core/errors/tool-input-error.js';
export { ToolwardenError } from './core/errors/toolwarden-error.js';
export { TransientToolError } from './core/errors/transient-tool-error.js';
export { UnknownToolError } from './core/errors/unknown-tool-error.js';
export type { GuardState, LoopEvidence } from './core/guard-state.js';
export type { JsonSchema } from './core/json-schema.js';
export type {
  LoopOutcome,
  LoopUsage,
  StopEvidence,
  StopReason,
} from './core/loop-outcome.js';
export type {
  AssistantMessage,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './core/message.js';
export type { Model, ModelRequest, ModelResponse, TokenUsage } from './core/model.js';
export type { RunEvent, RunEventListener } from './core/run-event.js';
export { RUN_STATE_SCHEMA_VERSION, type RunState } from './core/run-state.js';
export type { Store } from './core/store.js';
export type { ToolEvent, ToolEventListener } from './core/tool-event.js';
export type {
  ToolCallFailure,
  ToolCallResult,
  ToolCallSuccess,
  ToolErrorCode,
  ToolExecutionResult,
} from './core/tool-execution-result.js';
export type { ShowErrorMessages } from './gate/show-error-messages.js';
export type { LoopThresholds } from './guard/detect-loops.js';
export { redact } from './redact/redact.js';
export { explainStop } from './run/explain-stop.js';
export type { RunOptions } from './run/loop-options.js';
export { readPendingRun } from './run/pending-run.js';
export { restoreRunState } from './run/restore-run-state.js';
export { runToolLoop } from './run/run-tool-loop.js';
export {
  costBudget,
  type GuardOptions,
  loopGuard,
  maxRoundTrips,
  type StopCondition,
  stopIf,
  timeBudget,
  tokenBudget,
} from './run/stop-conditions.js';
export type { StopInfo } from './run/stop-info.js';
export { streamToolLoop } from './run/stream-tool-loop.js';
export type { SchemaInput } from './schema/input-validator.js';
export { MemoryStore } from './store/memory-store.js';
export type { CallDecision } from './tools/call-decision.js';
export {
  type AnyTool,
  defineTool,
  type Tool,
  type ToolDefinition,
  type ToolEffect,
} from './tools/define-tool.js';
export type { LoopHints } from './tools/loop-hints.js';
export type { ToolContext } from './tools/tool-context.js';
export type { ToolRegistry } from './tools/tool-registry.js';
