import { type ResolvedPolicy, resolvePolicy } from '../chain/execution-policy.js';
import { type CallsOutcome, runToolCalls } from '../chain/run-tool-calls.js';
import type { ToolEventListener } from '../chain/tool-event.js';
import type { TurnCounts } from '../chain/turn-counts.js';
import type { AssistantMessage } from '../messages/message.js';
import { type ToolRegistry, toToolRegistry } from '../tools/tool-registry.js';
import type { RunOptions } from './loop-options.js';
import type { PendingCall } from './run-state.js';

// PROVISIONAL: the one place the loop meets the chain; replaced by the chain's runtime when it lands.

export interface LoopRuntime {
  readonly tools: ToolRegistry;
  readonly policy: ResolvedPolicy;
}

export function loopRuntimeOf(options: RunOptions, listener: ToolEventListener | undefined): LoopRuntime {
  return {
    tools: toToolRegistry(options.tools ?? []),
    policy: resolvePolicy(listener === undefined ? options : { ...options, onEvent: listener }),
  };
}

export interface LoopCallsRequest {
  readonly assistant: AssistantMessage;
  readonly counts: TurnCounts;
  readonly signal: AbortSignal;
  readonly data: unknown;
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  readonly now: () => number;
  readonly decisions: ReadonlyMap<string, 'run' | 'deny'> | undefined;
}

export interface LoopCallsOutcome extends CallsOutcome {
  readonly interrupted?: readonly PendingCall[];
  readonly aborted?: boolean;
  readonly callbackFailure?: { readonly callback: string; readonly error: unknown };
}

/** Runs one round's calls; never rejects (a chain that throws is reported as `thrown`). */
export async function runCalls(
  runtime: LoopRuntime,
  request: LoopCallsRequest,
): Promise<LoopCallsOutcome | { readonly thrown: unknown }> {
  try {
    return await runToolCalls(request, runtime.policy, runtime.tools, request.counts);
  } catch (error) {
    return { thrown: error };
  }
}

/** Whether a call limit stops the run (`onLimitExceeded: 'throw'`) or only tells the model. */
export function stopsOnLimit(runtime: LoopRuntime): boolean {
  return runtime.policy.onLimitExceeded === 'throw';
}
