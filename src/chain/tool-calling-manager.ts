import { type ExecutionRequest, executeWithPolicy } from './execute-tool-calls.js';
import { resolvePolicy, type ToolExecutionPolicy } from './execution-policy.js';
import type { ToolExecutionResult } from './tool-execution-result.js';

/**
 * A configured `executeToolCalls`: the policy is checked and resolved once. It keeps no state between
 * calls (counts come from each history), so one manager serves any number of turns at once.
 */
export interface ToolCallingManager {
  readonly policy: ToolExecutionPolicy;
  executeToolCalls(input: ExecutionRequest): Promise<ToolExecutionResult>;
}

export function createToolCallingManager(policy: ToolExecutionPolicy = {}): ToolCallingManager {
  const resolved = resolvePolicy(policy);
  return Object.freeze({
    policy: Object.freeze({ ...policy }),
    executeToolCalls: (input: ExecutionRequest) => executeWithPolicy(input, resolved),
  });
}
