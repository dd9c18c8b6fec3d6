import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../core/defaults.js';
import type { ErrorClass } from '../core/error-class.js';
import { CallbackError } from '../core/errors/callback-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { NoToolCallError } from '../core/errors/no-tool-call-error.js';
import { ToolCallLimitExceededError } from '../core/errors/tool-call-limit-exceeded-error.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import type { AssistantMessage, Message } from '../core/message.js';
import type { Store } from '../core/store.js';
import type { ToolEventListener } from '../core/tool-event.js';
import type {
  LimitScope,
  ToolCallResult,
  ToolErrorCode,
  ToolExecutionResult,
} from '../core/tool-execution-result.js';
import { checkOptionNames, type OptionNames, optionNameSet } from '../options/check-option-names.js';
import { redactForModel } from '../redact/redact.js';
import type { AnyTool } from '../tools/define-tool.js';
import { type ToolRegistry, toToolRegistry } from '../tools/tool-registry.js';
import { limitErrorMessage } from './call-limits.js';
import { type CallsOutcome, runToolCalls } from './calls.js';
import { countTurnCalls, type TurnCounts } from './limits.js';
import { normalizeToolCalls } from './normalize-tool-calls.js';
import { inCallOrder, pausedRound, sameCalls } from './paused-round.js';
import type { PendingCall } from './pending-call.js';
import { POLICY_OPTIONS, type ResolvedPolicy, resolvePolicy, type ToolExecutionPolicy } from './policy.js';
import { type ResumeDecision, type SettledDecision, settleDecisions } from './resume-decision.js';

/** What `createToolRuntime` takes: the tools, and the policy they run under. */
export interface ToolRuntimeOptions extends ToolExecutionPolicy {
  readonly tools: ToolRegistry | Iterable<AnyTool>;
}

/**
 * Decisions for calls that wait (`needsApproval`, or a hook that interrupted), by call id: their hooks are
 * not asked again (`authorize` is). An approval that names an `argumentsDigest` other than its call's is
 * refused (`ApprovalError`) before anything runs.
 */
export type Decisions = Readonly<Record<string, ResumeDecision>>;

/**
 * What `executeToolCall` gives: an answer (`answered`: what an MCP proxy answers with), or the interruption
 * of a call that waits for a decision (`interrupted`: `needsApproval`, or a hook that interrupted; it did not
 * run; run it again with `decisions`).
 */
export type ToolCallOutcome =
  | {
      readonly type: 'answered';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly isError: boolean;
      /** The text the model sees. */
      readonly content: string;
      /** The tool's value, before serialization (success only). */
      readonly value?: unknown;
      /** The error's stable code (errors only). */
      readonly code?: ToolErrorCode;
      /** The failure's class (errors only). */
      readonly errorClass?: ErrorClass;
      /** The limit the call reached, when it was refused `TOOL_CALL_LIMIT`. */
      readonly limit?: { readonly scope: LimitScope; readonly limit: number };
      /** The full result of the call. */
      readonly result: ToolCallResult;
    }
  | {
      readonly type: 'interrupted';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly pending: PendingCall;
    };

/** What a call gave: what an MCP proxy answers with. */
export type ToolCallAnswer = Extract<ToolCallOutcome, { type: 'answered' }>;

/** One call, as a model or an MCP client sends it. */
export type ToolCallInput = Parameters<ToolRuntime['executeToolCall']>[0];

/**
 * Tools and a policy, checked and resolved once, with the store the policy names (or a `MemoryStore` of
 * its own): the one way to run tool calls. Each execution counts its turn from the history it is given
 * (back to the last user message), so one runtime serves any number of turns and sessions at once.
 */
export interface ToolRuntime {
  readonly tools: ToolRegistry;
  /** What the runtime runs with that a caller may read, every default filled in. */
  readonly policy: {
    /** The store the policy named, or the runtime's own `MemoryStore`. */
    readonly store: Store;
    readonly onLimitExceeded: 'throw' | 'feedback';
    readonly onStoreFailure: 'open' | 'closed';
    /** The text the model reads for a denied call. */
    readonly deniedText: string;
  };
  /**
   * Executes the calls of one model response and appends one tool message per call, in the model's order.
   * Failures the model can act on become tool messages. A fatal failure throws `ToolExecutionError`, a
   * limit under the `throw` policy `ToolCallLimitExceededError`, a caller callback that fails
   * `CallbackError`: each carries the partial result. When the caller's signal aborts, the promise rejects
   * with the signal's reason. Calls that wait for a decision do not run: the result lists them as
   * `interrupted`, and the other calls of the response run. Handing back the returned `messages` with the
   * same response and `decisions` runs the waiting ones.
   */
  executeToolCalls(
    /** What one execution is about, apart from the tools and the policy, and the context its tools run in. */
    request: {
      /** Aborts every running tool (their signals abort); no retry or call starts after it, and the promise rejects with its reason. */
      readonly signal?: AbortSignal;
      /** Caller data passed to every tool's context, never to the model. */
      readonly data?: unknown;
      /** The turn the calls belong to: with a `sessionId`, the turn's limits are counted in the store. */
      readonly turnId?: string;
      /** The session the calls belong to: its writes' records and its limits live in the runtime's store. */
      readonly sessionId?: string;
      /** Clock for durations, in milliseconds (default `performance.now`). */
      readonly now?: () => number;
      /** This execution's developer events. A listener that throws never breaks the execution. */
      readonly onEvent?: ToolEventListener;
      /** Events carry the unredacted error and offending result value (default false: only their kind). */
      readonly includeContent?: boolean;
      /** The conversation before the model's response: the turn's counts are taken from it. */
      readonly messages: readonly Message[];
      /** The model's response: an assistant message with tool calls. */
      readonly response: AssistantMessage;
      /** Decisions for the calls of an interrupted response, by call id (see `Decisions`). */
      readonly decisions?: Decisions;
    },
  ): Promise<ToolExecutionResult>;
  /**
   * Runs one call through the whole chain with no history: the structured answer (`content`, `isError`,
   * `value`, `code`, `errorClass`, the full `result`) an MCP proxy needs, or the interruption of a call that
   * waits for a decision. Every failure of the model or the tool, fatal ones included, is an answer with
   * `isError: true`. Rejects with the signal's reason when the caller aborts, with `CallbackError` when a
   * callback fails, and with `UnknownToolError` under `unknownTool: 'throw'`. Without `counts`, no turn
   * limits apply.
   */
  executeToolCall(
    /** One call, as a model or an MCP client sends it. */
    call: {
      /** Default: a generated `tw_…` id. */
      readonly id?: string;
      readonly name: string;
      /** The argument text, or an arguments object (as MCP sends it), encoded as JSON first. */
      readonly arguments?: unknown;
    },
    /** The context of `executeToolCalls` (`signal`, `data`, `sessionId`, `onEvent`, …), and the call's own. */
    options?: Omit<Parameters<ToolRuntime['executeToolCalls']>[0], 'messages' | 'response'> & {
      /**
       * The turn's counts, updated when the call is admitted. Left out, no turn limits apply (no per-tool or
       * total limit, no invalid-attempt limit): the caller keeps count.
       */
      readonly counts?: TurnCounts;
      /**
       * Whose idempotency records the call is matched against, when not its session's alone (several
       * sessions sharing one scope replay each other's writes); the session's limits still count under
       * `sessionId`. Default: the `sessionId`.
       */
      readonly idempotencyScope?: string;
    },
  ): Promise<ToolCallOutcome>;
}

/** What one execution is about: `executeToolCalls`' request. */
export type ExecutionRequest = Parameters<ToolRuntime['executeToolCalls']>[0];

/** What every execution takes besides its calls: the context the tools run in, and where its events go. */
export type ExecutionContext = Omit<ExecutionRequest, 'messages' | 'response' | 'decisions'>;

/** What `executeToolCall` takes besides the call. */
export type SingleCallOptions = NonNullable<Parameters<ToolRuntime['executeToolCall']>[1]>;

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
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({
      option: 'tools',
      message: 'createToolRuntime expects { tools, ...policy }',
    });
  }
  checkOptionNames(options, KNOWN, { of: 'createToolRuntime', habits: RUN_OPTIONS });
  return buildToolRuntime(options);
}

/** `createToolRuntime` for options whose names the caller checked (the loop's, which hold its other options too). */
export function buildToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const policy = resolvePolicy(options);
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
