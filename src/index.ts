export { forgetIdempotencyRecord } from './chain/idempotency/forget-idempotency-record.js';
export type { PendingCall } from './chain/pending-call.js';
export type { ResumeDecision } from './chain/resume-decision.js';
export {
  createToolRuntime,
  type ToolCallOutcome,
  type ToolRuntime,
  type ToolRuntimeOptions,
} from './chain/runtime.js';
/** Every default that changes behaviour, by name: each constant says what it bounds and why. */
export * as defaults from './core/defaults.js';
export type { ErrorClass } from './core/error-class.js';
export { ApprovalError } from './core/errors/approval-error.js';
export { CallbackError } from './core/errors/callback-error.js';
export { ERROR_CODES, type ToolwardenCode } from './core/errors/error-codes.js';
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
export type { JsonSchema } from './core/json-schema.js';
export type { LoopOutcome, StopReason } from './core/loop-outcome.js';
export type {
  AssistantMessage,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './core/message.js';
export type { Model, ModelRequest, ModelResponse, TokenUsage } from './core/model.js';
export type { RunEvent } from './core/run-event.js';
export type { RunState } from './core/run-state.js';
export type { Store } from './core/store.js';
export type { ToolEvent } from './core/tool-event.js';
export type {
  ToolCallResult,
  ToolErrorCode,
  ToolExecutionResult,
} from './core/tool-execution-result.js';
export type { GuardOptions } from './guard/guard-options.js';
export { redact } from './redact/redact.js';
export { explainStop } from './run/explain-stop.js';
export type { RunOptions } from './run/loop-options.js';
export { readPendingRun } from './run/pending-run.js';
export { restoreRunState } from './run/restore-run-state.js';
export { runToolLoop } from './run/run-tool-loop.js';
export {
  costBudget,
  loopGuard,
  maxRoundTrips,
  type StopCondition,
  stopIf,
  timeBudget,
  tokenBudget,
} from './run/stop-conditions.js';
export type { StopInfo } from './run/stop-info.js';
export { streamToolLoop } from './run/stream-tool-loop.js';
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
