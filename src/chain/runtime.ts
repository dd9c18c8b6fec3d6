import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../core/defaults.js';
import { CallbackError } from '../core/errors/callback-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { NoToolCallError } from '../core/errors/no-tool-call-error.js';
import { ToolCallLimitExceededError } from '../core/errors/tool-call-limit-exceeded-error.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import type { AssistantMessage } from '../core/message.js';
import type { ToolCallResult, ToolExecutionResult } from '../core/tool-execution-result.js';
import { checkOptionNames, type OptionNames, optionNameSet } from '../options/check-option-names.js';
import { redactForModel } from '../redact/redact.js';
import { type ToolRegistry, toToolRegistry } from '../tools/tool-registry.js';
import { limitErrorMessage } from './call-limits.js';
import { type CallsOutcome, runToolCalls } from './calls.js';
import { countTurnCalls } from './limits.js';
import { normalizeToolCalls } from './normalize-tool-calls.js';
import { inCallOrder, pausedRound, sameCalls } from './paused-round.js';
import { POLICY_OPTIONS, type ResolvedPolicy, type RuntimeDriver, resolvePolicy } from './policy.js';
import { type ResumeDecision, type SettledDecision, settleDecisions } from './resume-decision.js';
import type {
  Decisions,
  ExecutionContext,
  ExecutionRequest,
  SingleCallOptions,
  ToolCallInput,
  ToolCallOutcome,
  ToolRuntime,
  ToolRuntimeOptions,
} from './tool-runtime.js';

export type {
  Decisions,
  ExecutionContext,
  ExecutionRequest,
  SingleCallOptions,
  ToolCallAnswer,
  ToolCallInput,
  ToolCallOutcome,
  ToolRuntime,
  ToolRuntimeOptions,
} from './tool-runtime.js';

const KNOWN = optionNameSet(POLICY_OPTIONS, { tools: true });

/** Options of a run or a call that a runtime would ignore, and where they go instead. */
const RUN_OPTIONS: Readonly<Record<string, string>> = {
  onEvent:
    'events are per call or run: give onEvent to runtime.executeToolCalls, executeToolCall or runToolLoop',
  sessionId: 'a session is per call or run: give sessionId to executeToolCalls or runToolLoop',
  signal: 'a signal is per call or run: give it to executeToolCalls or runToolLoop',
};

/** The options of `ExecutionContext`, by name. */
const CONTEXT_OPTIONS: OptionNames<ExecutionContext> = {
  signal: true,
  data: true,
  turnId: true,
  sessionId: true,
  now: true,
  onEvent: true,
  includeContent: true,
};
const REQUEST_OPTIONS = optionNameSet(CONTEXT_OPTIONS, {
  messages: true,
  response: true,
  decisions: true,
} satisfies OptionNames<Omit<ExecutionRequest, keyof ExecutionContext>>);
const CALL_OPTIONS = optionNameSet(CONTEXT_OPTIONS, {
  decisions: true,
  counts: true,
  idempotencyScope: true,
} satisfies OptionNames<Omit<SingleCallOptions, keyof ExecutionContext>>);

/** Options a method would ignore: the runtime's own (its policy), and the forms the methods no longer take. */
const METHOD_HABITS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [...Object.keys(POLICY_OPTIONS), 'tools', 'runtime'].map((name) => [
      name,
      `belongs in createToolRuntime({ tools, ${name}, ... }): the runtime has its tools and policy already`,
    ]),
  ),
  decision: 'give decisions: { [toolCallId]: decision }',
};

/** A runtime as the library reads it: its policy whole, of which `ToolRuntime` shows the part a caller reads. */
export interface ResolvedRuntime extends ToolRuntime {
  readonly policy: ResolvedPolicy;
}

/** The runtime with its whole policy: `createToolRuntime` is the one maker of a runtime, and it holds its resolved policy. */
export function resolvedRuntime(runtime: ToolRuntime): ResolvedRuntime {
  return runtime as ResolvedRuntime;
}

/** Checks the tools and the policy once (an option it does not know is refused too) and builds the runtime. */
export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  checkRuntimeOptions(options);
  return buildToolRuntime(options);
}

/** `createToolRuntime` for a driver of runs (the DBOS adapter): the same checks, and the driver's hooks. */
export function createDrivenRuntime(options: ToolRuntimeOptions, driver: RuntimeDriver): ToolRuntime {
  checkRuntimeOptions(options);
  return buildToolRuntime(options, driver);
}

function checkRuntimeOptions(options: ToolRuntimeOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({
      option: 'tools',
      message: 'createToolRuntime expects { tools, ...policy }',
    });
  }
  checkOptionNames(options, KNOWN, { of: 'createToolRuntime', habits: RUN_OPTIONS });
}

/** `createToolRuntime` for options whose names the caller checked (the loop's, which hold its other options too). */
export function buildToolRuntime(options: ToolRuntimeOptions, driver?: RuntimeDriver): ToolRuntime {
  const policy = resolvePolicy(options, driver);
  const tools = toToolRegistry(options.tools);
  const chain: Chain = { policy, tools };
  return Object.freeze({
    tools,
    policy,
    executeToolCalls: (request: ExecutionRequest) => executeToolCalls(request, chain),
    executeToolCall: (call: ToolCallInput, callOptions?: SingleCallOptions) =>
      executeToolCall(call, callOptions ?? {}, chain),
  });
}

/** An id for a call that came without a usable one: unique across requests and processes. */
export function newCallId(): string {
  return `tw_${randomUUID()}`;
}

/** The resolved policy and the registry an execution runs with. */
interface Chain {
  readonly policy: ResolvedPolicy;
  readonly tools: ToolRegistry;
}

/**
 * The calls of one response: normalized (the returned history holds the repaired assistant message), run,
 * and answered in the model's order; the outcome's failures become the documented throws, each carrying
 * the partial result. A history that ends with this response's round, paused (some calls answered, some
 * waiting), is resumed: only the waiting calls run, and the returned history holds every answer in the
 * model's order.
 */
async function executeToolCalls(request: ExecutionRequest, chain: Chain): Promise<ToolExecutionResult> {
  checkOptionNames(request, REQUEST_OPTIONS, { of: 'executeToolCalls', habits: METHOD_HABITS });
  const history = request.messages;
  const response = repairedAssistant(request.response);
  const paused = pausedRound(history);
  const resumed = paused !== undefined && sameCalls(paused.assistant, response) ? paused : undefined;
  const assistant = resumed?.assistant ?? response;
  const toRun = resumed === undefined ? assistant : { ...assistant, toolCalls: resumed.waiting };
  const outcome = await runToolCalls(
    {
      assistant: toRun,
      counts: countTurnCalls(history, chain.policy.limits.isExcluded),
      signal: request.signal,
      data: request.data,
      turnId: request.turnId,
      sessionId: request.sessionId,
      now: request.now,
      onEvent: request.onEvent,
      includeContent: request.includeContent,
      decisions: checkDecisions(request.decisions, toRun.toolCalls ?? [], false),
    },
    chain,
  );
  const { interrupted, unknownTool } = outcome;
  if (unknownTool !== undefined) throw unknownTool;

  const ran = outcome.results.length > 0 || interrupted !== undefined;
  const messages =
    resumed !== undefined
      ? history
          .slice(0, resumed.at)
          .concat([assistant], inCallOrder(assistant.toolCalls ?? [], resumed.settled, outcome.toolMessages))
      : ran
        ? history.concat([assistant], outcome.toolMessages)
        : history;
  const partialResult: ToolExecutionResult = {
    messages,
    results: outcome.results,
    returnDirect: outcome.returnDirect,
    ...(interrupted === undefined ? {} : { interrupted }),
  };
  if (outcome.aborted === true) throw request.signal?.reason;
  throwFailure(outcome, chain.policy, partialResult);
  return partialResult;
}

/** The outcome's failure that the caller must fix, thrown with the partial result; none: returns. */
function throwFailure(
  outcome: CallsOutcome,
  policy: ResolvedPolicy,
  partialResult: ToolExecutionResult,
): void {
  const { callbackFailure, fatal, limited } = outcome;
  if (callbackFailure !== undefined) {
    throw new CallbackError({
      callback: callbackFailure.callback,
      cause: callbackFailure.error,
      partialResult,
    });
  }
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
      message: limitErrorMessage(limited.limit, limited.toolName),
      scope: limited.limit.scope,
      limit: limited.limit.limit,
      toolName: limited.toolName,
      partialResult,
    });
  }
}

/** One call through the whole chain, with no history (see `ToolRuntime.executeToolCall`). */
async function executeToolCall(
  input: ToolCallInput,
  options: SingleCallOptions,
  chain: Chain,
): Promise<ToolCallOutcome> {
  checkOptionNames(options, CALL_OPTIONS, { of: 'executeToolCall', habits: METHOD_HABITS });
  const [call] = normalizeToolCalls([input], newCallId);
  if (call === undefined) throw new TypeError('executeToolCall expects a call { id?, name, arguments? }');
  const outcome = await runToolCalls(
    {
      assistant: { role: 'assistant', content: '', toolCalls: [call] },
      counts: options.counts,
      signal: options.signal,
      data: options.data,
      turnId: options.turnId,
      sessionId: options.sessionId,
      idempotencyScope: options.idempotencyScope,
      now: options.now,
      onEvent: options.onEvent,
      includeContent: options.includeContent,
      decisions: checkDecisions(options.decisions, [call], true),
    },
    chain,
  );
  const pending = outcome.interrupted?.[0];
  if (pending !== undefined) {
    return { type: 'interrupted', toolCallId: pending.toolCallId, toolName: pending.toolName, pending };
  }
  if (outcome.unknownTool !== undefined) throw outcome.unknownTool;
  if (outcome.aborted === true) throw options.signal?.reason;
  const { callbackFailure } = outcome;
  if (callbackFailure !== undefined) {
    throw new CallbackError({ callback: callbackFailure.callback, cause: callbackFailure.error });
  }
  const result = outcome.results[0] as ToolCallResult;
  const answer = { type: 'answered', toolCallId: result.toolCallId, toolName: result.toolName } as const;
  return result.type === 'success'
    ? { ...answer, content: result.content, result, isError: false, value: result.value }
    : {
        ...answer,
        content: result.content,
        result,
        isError: true,
        code: result.code,
        errorClass: result.errorClass,
        ...(outcome.limited?.limit === undefined ? {} : { limit: outcome.limited.limit }),
      };
}

/**
 * The decisions checked against the calls about to run (see `settleDecisions`). `strict`: a decision for
 * an id of no call here is refused; else ids of other calls are left out.
 */
function checkDecisions(
  decisions: Decisions | undefined,
  calls: readonly { readonly id: string; readonly name: string; readonly arguments: string }[],
  strict: boolean,
): ReadonlyMap<string, SettledDecision> | undefined {
  if (decisions === undefined) return undefined;
  if (typeof decisions !== 'object' || decisions === null || decisions instanceof Map) {
    throw new InvalidOptionsError({
      option: 'decisions',
      message: 'must be an object of call id to decision ({ [toolCallId]: decision })',
    });
  }
  const decided = calls.map((call) => ({
    toolCallId: call.id,
    toolName: call.name,
    arguments: call.arguments,
  }));
  return settleDecisions(Object.entries(decisions), decided, {
    option: 'decisions',
    strict,
    requireDigest: false,
  });
}

/**
 * The response's assistant message with its calls normalized; other fields are kept. Throws
 * `NoToolCallError` when there is no message or it requests no call.
 */
function repairedAssistant(response: unknown): AssistantMessage {
  if (typeof response !== 'object' || response === null) throw new NoToolCallError();
  let fields: Partial<Record<string, unknown>>;
  try {
    fields = { ...response };
  } catch {
    fields = {};
  }
  const toolCalls = normalizeToolCalls(fields.toolCalls, newCallId);
  if (toolCalls.length === 0) throw new NoToolCallError();
  fields.role = 'assistant';
  if (typeof fields.content !== 'string') fields.content = '';
  fields.toolCalls = toolCalls;
  return fields as unknown as AssistantMessage;
}

/** The fatal error in the thrown error's message, redacted (logs print it; `cause` keeps the original). */
function describe(error: unknown): string {
  try {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return redactForModel(text, DEFAULT_MAX_MODEL_MESSAGE_CHARS);
  } catch {
    return 'a value that cannot be printed';
  }
}

export type { ResumeDecision };
