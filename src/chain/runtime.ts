import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { ToolExecutionResult } from '../core/tool-execution-result.js';
import { checkOptionNames, optionNameSet } from '../options/check-option-names.js';
import type { AnyTool } from '../tools/define-tool.js';
import { type ToolRegistry, toToolRegistry } from '../tools/tool-registry.js';
import {
  executeSingleCall,
  type SingleCallOptions,
  type ToolCallInput,
  type ToolCallOutcome,
} from './execute-single-call.js';
import { type ExecutionRequest, executeWithRuntime } from './execute-with-runtime.js';
import {
  POLICY_OPTIONS,
  type ResolvedPolicy,
  resolvePolicy,
  type ToolExecutionPolicy,
} from './policy.js';
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

const KNOWN = optionNameSet(POLICY_OPTIONS, { tools: true });

/** Checks the tools and the policy once (an option it does not know is refused too) and builds the runtime. */
/** Options of a run or a call that a runtime would ignore, and where they go instead. */
const RUN_OPTIONS: Readonly<Record<string, string>> = {
  onEvent:
    'events are per call or run: give onEvent to runtime.executeToolCalls, executeToolCall or runToolLoop',
  sessionId: 'a session is per call or run: give sessionId to executeToolCalls or runToolLoop',
  signal: 'a signal is per call or run: give it to executeToolCalls or runToolLoop',
};

export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({
      option: 'tools',
      message: 'createToolRuntime expects { tools, ...policy }',
    });
  }
  checkOptionNames(options, KNOWN, { of: 'createToolRuntime', habits: RUN_OPTIONS });
  return buildToolRuntime(options);
}

/** `createToolRuntime` for options whose names the caller checked: a one-off form's hold its other options too. */
export function buildToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
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
