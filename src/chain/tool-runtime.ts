import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { AnyTool } from '../tools/define-tool.js';
import { type ToolRegistry, toToolRegistry } from '../tools/tool-registry.js';
import {
  executeSingleCall,
  type SingleCallOptions,
  type ToolCallInput,
  type ToolCallOutcome,
} from './execute-single-call.js';
import { type ExecutionRequest, executeWithRuntime } from './execute-with-runtime.js';
import { type ResolvedPolicy, resolvePolicy, type ToolExecutionPolicy } from './execution-policy.js';
import type { ToolExecutionResult } from './tool-execution-result.js';
import { createTurnCountCache } from './turn-count-cache.js';

export interface ToolRuntimeOptions extends ToolExecutionPolicy {
  readonly tools: ToolRegistry | Iterable<AnyTool>;
}

/**
 * Tools and a policy, checked and resolved once: the one way to run tool calls. It keeps no state of its
 * own between executions (counts come from each history; the counts of histories it returned are cached
 * weakly), so one runtime serves any number of turns at once.
 */
export interface ToolRuntime {
  readonly tools: ToolRegistry;
  /** The policy with every default filled in. */
  readonly policy: ResolvedPolicy;
  /** Runs the calls of one model response and appends one tool message per call (see `executeToolCalls`). */
  executeToolCalls(request: ExecutionRequest): Promise<ToolExecutionResult>;
  /** Runs one call through the whole chain, with no history (see `executeToolCall`). */
  executeToolCall(call: ToolCallInput, options?: SingleCallOptions): Promise<ToolCallOutcome>;
}

export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({
      option: 'tools',
      message: 'createToolRuntime expects { tools, ...policy }',
    });
  }
  const policy = resolvePolicy(options);
  const tools = toToolRegistry(options.tools);
  const counts = createTurnCountCache(policy.limits.isExcluded);
  const runtime: ToolRuntime = Object.freeze({
    tools,
    policy,
    executeToolCalls: (request: ExecutionRequest) => executeWithRuntime(request, runtime, counts),
    executeToolCall: (call: ToolCallInput, callOptions?: SingleCallOptions) =>
      executeSingleCall(call, callOptions ?? {}, runtime),
  });
  return runtime;
}

/** Either a runtime, or tools and a policy to build one from (the one-off form). */
export type RuntimeInput =
  | { readonly runtime: ToolRuntime; readonly tools?: never }
  | (ToolRuntimeOptions & { readonly runtime?: undefined });

/** The runtime an input names, or one built from its tools and policy. */
export function runtimeOf(input: RuntimeInput): ToolRuntime {
  if (input.runtime === undefined) return createToolRuntime(input);
  if ((input as { tools?: unknown }).tools !== undefined) {
    throw new InvalidOptionsError({
      option: 'tools',
      message: 'pass either a runtime or tools (with a policy), not both: the runtime already has its tools',
    });
  }
  return input.runtime;
}
