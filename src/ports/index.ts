// toolwarden/ports: the types an adapter author implements or reads, and a user of the loop need not name:
// the store port's values (a `Store` of one's own), the model port's two kinds and their stream parts (a
// `Model` of one's own), a schema compiler, the wrappers telemetry hooks into, and how a model call failed;
// and the parts of a run that a store, a report or a dashboard reads field by field: the guard's memory and
// its evidence, a stop's evidence, a run's usage, which limit a call reached, the runtime's tool registry.
// The ports themselves (`Store`, `Model`) and what the loop gives back (`LoopOutcome`, `RunState`,
// `ToolCallResult`, each leading to the parts here) stay in `toolwarden`. Types only.

export type { WrappedToolCall, WrapToolExecution } from '../chain/wrap-tool-execution.js';
export type { GuardState, LoopEvidence } from '../core/guard-state.js';
export type { LoopUsage, StopEvidence } from '../core/loop-outcome.js';
export type {
  GeneratingModel,
  ModelFinishReason,
  ModelStreamPart,
  StreamingModel,
  ToolSpec,
} from '../core/model.js';
export type { ModelErrorTraits, ModelFailure, ModelGiveUp } from '../core/model-failure.js';
export type {
  ReserveResult,
  StoreCounter,
  StoreEntry,
  StoreReserveOptions,
  StoreSetOptions,
  StoreSetResult,
} from '../core/store.js';
export type { LimitScope } from '../core/tool-execution-result.js';
export type { ValidationIssue, ValidationOutcome } from '../core/validation-issue.js';
export type { ModelCallWrapper } from '../run/loop-options.js';
export type { RunWrapper, WrappedRun } from '../run/wrap-run.js';
export type { InputValidator } from '../schema/input-validator.js';
export type { CompiledValidator, SchemaCompiler } from '../schema/schema-compiler.js';
export type { ToolRegistry } from '../tools/tool-registry.js';
