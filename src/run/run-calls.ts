import { type CallsOutcome, runToolCalls } from '../chain/run-tool-calls.js';
import type { ToolEventListener } from '../chain/tool-event.js';
import { createToolRuntime, type ToolRuntime } from '../chain/tool-runtime.js';
import type { TurnCounts } from '../chain/turn-counts.js';
import type { AssistantMessage } from '../messages/message.js';
import type { RunOptions } from './loop-options.js';

/** The runtime a run uses: the one given, or one made from the run's `tools` and policy fields. */
export function loopRuntimeOf(options: RunOptions): ToolRuntime {
  if (options.runtime !== undefined) return options.runtime;
  const { runtime: _runtime, tools, ...policy } = options;
  return createToolRuntime({ ...policy, tools: tools ?? [] });
}

export interface LoopCallsRequest {
  readonly assistant: AssistantMessage;
  readonly counts: TurnCounts;
  readonly signal: AbortSignal | undefined;
  readonly data: unknown;
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  readonly now: () => number;
  readonly onEvent: ToolEventListener | undefined;
  readonly includeContent: boolean;
  readonly decisions: ReadonlyMap<string, 'run' | 'deny'> | undefined;
}

/** Runs one round's calls through the chain (which never rejects). */
export function runCalls(runtime: ToolRuntime, request: LoopCallsRequest): Promise<CallsOutcome> {
  return runToolCalls(request, runtime);
}

/** Whether a call limit stops the run (`onLimitExceeded: 'throw'`) or only tells the model. */
export function stopsOnLimit(runtime: ToolRuntime): boolean {
  return runtime.policy.onLimitExceeded === 'throw';
}
