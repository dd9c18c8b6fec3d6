import { NoToolCallError } from '../errors/no-tool-call-error.js';
import { ToolCallLimitExceededError } from '../errors/tool-call-limit-exceeded-error.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import type { AssistantMessage, Message } from '../messages/message.js';
import type { AnyTool } from '../tools/define-tool.js';
import { type ToolRegistry, toToolRegistry } from '../tools/tool-registry.js';
import { type ResolvedPolicy, resolvePolicy, type ToolExecutionPolicy } from './execution-policy.js';
import { type CallsOutcome, runToolCalls } from './run-tool-calls.js';
import type { ToolExecutionResult } from './tool-execution-result.js';
import { countTurnCalls } from './turn-counts.js';

export interface ExecuteToolCallsInput extends ToolExecutionPolicy, ExecutionRequest {}

/** What one execution is about, apart from the policy. */
export interface ExecutionRequest {
  /** The conversation before the model's response. */
  readonly messages: readonly Message[];
  /** The model's response (an assistant message with tool calls, or an object holding it as `message`). */
  readonly response: AssistantMessage | { readonly message: AssistantMessage };
  readonly tools: ToolRegistry | Iterable<AnyTool>;
  /** Aborts every running tool (their signals abort) and skips retries. */
  readonly signal?: AbortSignal;
  /** Caller data passed to every tool's context, never to the model. */
  readonly data?: unknown;
  readonly turnId?: string;
  readonly sessionId?: string;
  /** Clock for durations, in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

/**
 * Executes the tool calls of one model response and appends one tool message per call, in the model's
 * order. Failures the model can act on become tool messages; a fatal failure throws `ToolExecutionError`,
 * and a limit under the `throw` policy throws `ToolCallLimitExceededError`: both carry the full partial result.
 */
export async function executeToolCalls(input: ExecuteToolCallsInput): Promise<ToolExecutionResult> {
  return executeWithPolicy(input, resolvePolicy(input));
}

/** The chain with a policy resolved once (see `createToolCallingManager`). */
export async function executeWithPolicy(
  input: ExecutionRequest,
  policy: ResolvedPolicy,
): Promise<ToolExecutionResult> {
  const assistant = assistantOf(input.response);
  const counts = countTurnCalls(input.messages, policy.limits.isExcluded);
  const request = {
    assistant,
    signal: input.signal,
    data: input.data,
    turnId: input.turnId,
    sessionId: input.sessionId,
    now: input.now,
  };
  const running = runToolCalls(request, policy, toToolRegistry(input.tools), counts);
  return finish(input.messages, assistant, running instanceof Promise ? await running : running, policy);
}

function assistantOf(response: ExecuteToolCallsInput['response'] | null | undefined): AssistantMessage {
  if (typeof response !== 'object' || response === null) throw new NoToolCallError();
  if ('role' in response) return response;
  if ('message' in response && typeof response.message === 'object' && response.message !== null) {
    return response.message;
  }
  throw new NoToolCallError();
}

function finish(
  history: readonly Message[],
  assistant: AssistantMessage,
  outcome: CallsOutcome,
  policy: ResolvedPolicy,
): ToolExecutionResult {
  const messages: Message[] = history.slice();
  messages.push(assistant);
  for (const message of outcome.toolMessages) messages.push(message);
  const partialResult: ToolExecutionResult = {
    messages,
    results: outcome.results,
    returnDirect: outcome.returnDirect,
  };
  const { fatal, limited } = outcome;
  if (fatal !== undefined) {
    throw new ToolExecutionError({
      message: `Tool '${fatal.toolName}' (call ${fatal.toolCallId}) failed with a fatal error: ${describe(fatal.error)}`,
      toolName: fatal.toolName,
      toolCallId: fatal.toolCallId,
      cause: fatal.error,
      partialResult,
    });
  }
  if (limited?.limit !== undefined && policy.onLimitExceeded === 'throw') {
    throw new ToolCallLimitExceededError({
      message: limited.message,
      scope: limited.limit.scope,
      limit: limited.limit.limit,
      toolName: limited.toolName,
      partialResult,
    });
  }
  return partialResult;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return 'a value that cannot be printed';
  }
}
