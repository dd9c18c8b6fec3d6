/**
 * The fuzz suite's only door into toolwarden. Everything the fuzzers call (and every assumption they make
 * about the API: names, error classes, codes) is here, so a change of the public API is absorbed in this
 * file. The rest of `fuzz/` speaks in plain data: `unknown` messages, neutral views of the results.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { fromAiSdkModel } from '../src/adapters/ai-sdk/index.js';
import {
  HeldMessagesTooMuchError,
  MessagesStreamReader,
} from '../src/adapters/gateway/anthropic-messages/messages-stream-reader.js';
import { readMessagesRequest } from '../src/adapters/gateway/anthropic-messages/read-messages-request.js';
import { judgeAnswer } from '../src/adapters/gateway/judge-answer.js';
import {
  ChatStreamReader,
  HeldTooMuchError,
} from '../src/adapters/gateway/openai-chat/chat-stream-reader.js';
import { readChatRequest } from '../src/adapters/gateway/openai-chat/read-chat-request.js';
import { readResponsesRequest } from '../src/adapters/gateway/openai-responses/read-responses-request.js';
import {
  HeldResponsesTooMuchError,
  ResponsesStreamReader,
} from '../src/adapters/gateway/openai-responses/responses-stream-reader.js';
import { replayTurn } from '../src/adapters/gateway/replay-turn.js';
import { SessionHeaderError, sessionIdentity } from '../src/adapters/gateway/session-identity.js';
import { createSseParser, SseEventTooLargeError } from '../src/adapters/gateway/sse-events.js';
import { parseProxyConfigText } from '../src/adapters/mcp/proxy/proxy-config.js';
import { ProxyConfigError } from '../src/adapters/mcp/proxy/proxy-config-error.js';
import { ModelStreamError } from '../src/core/errors/model-stream-error.js';
import { EMPTY_GUARD_STATE } from '../src/core/guard-state.js';
import { hintsByTool } from '../src/guard/loop-hints.js';
import {
  type AnyTool,
  CallbackError,
  createToolRuntime,
  defineTool,
  FatalToolError,
  MemoryStore,
  type Message,
  type Model,
  RunStateError,
  restoreRunState,
  runToolLoop,
  type Store,
  ToolwardenError,
  TransientToolError,
} from '../src/index.js';
import { collectModelStream } from '../src/model/collect-model-stream.js';
import type { GeneratingModel, StreamingModel, ToolRegistry } from '../src/ports/index.js';
import { resolveGuard } from '../src/run/stop-conditions.js';
import { storeKey } from '../src/store/store-key.js';
import { assistantWithCalls, ScriptedModel, storeWith } from '../src/testing/index.js';
import { createToolRegistry } from '../src/tools/tool-registry.js';

/** A tool as the fuzzers describe it; `createFuzzRegistry` turns it into a toolwarden tool. */
export interface FuzzToolSpec {
  readonly name: string;
  readonly effect: 'read' | 'write';
  /** A JSON Schema or a Standard Schema (default: any object). */
  readonly input?: object;
  /** The result's contract (a JSON Schema or a Standard Schema). */
  readonly output?: object;
  readonly execute: (args: unknown, context: FuzzToolContext) => unknown;
}

export interface FuzzToolContext {
  readonly toolCallId: string;
  readonly signal: AbortSignal;
  /** 1 for the first run, 2 for the first retry, ... */
  readonly attempt: number;
  /** The caller data of the run. */
  readonly data: unknown;
}

/** What a run of the chain is configured with (every field is a valid option: only model output is hostile). */
export interface FuzzPolicy {
  readonly concurrency: number;
  readonly writeConcurrency: number;
  readonly perToolLimit: number;
  readonly totalLimit: number;
  readonly onLimitExceeded: 'throw' | 'feedback';
  readonly unknownTool: 'throw' | 'feedback';
  readonly onContractViolation: 'feedback' | 'throw' | 'warn';
  readonly timeoutMs: number;
  readonly readRetries: number;
  readonly writeRetries: number;
}

export interface FuzzRegistry {
  readonly registry: ToolRegistry;
}

/** Builds the campaign's registry once (defining tools compiles schemas: too slow to do per run). */
export function createFuzzRegistry(specs: readonly FuzzToolSpec[]): FuzzRegistry {
  const tools: AnyTool[] = specs.map((spec) =>
    defineTool({
      name: spec.name,
      description: `Fuzz tool ${spec.name}.`,
      effect: spec.effect,
      ...(spec.input === undefined ? {} : { input: spec.input as never }),
      ...(spec.output === undefined ? {} : { output: spec.output as never }),
      execute: (args, context) =>
        spec.execute(args, {
          toolCallId: context.toolCallId,
          signal: context.signal,
          attempt: context.attempt,
          data: context.data,
        }),
    }),
  );
  return { registry: createToolRegistry(tools) };
}

function policyOptions(policy: FuzzPolicy) {
  return {
    concurrency: policy.concurrency,
    writeConcurrency: policy.writeConcurrency,
    limits: { perTool: policy.perToolLimit, total: policy.totalLimit },
    onLimitExceeded: policy.onLimitExceeded,
    unknownTool: policy.unknownTool,
    onContractViolation: policy.onContractViolation,
    timeoutMs: policy.timeoutMs,
    retry: {
      readRetries: policy.readRetries,
      writeRetries: policy.writeRetries,
      baseDelayMs: 0,
      maxDelayMs: 1,
    },
  };
}

/** Per-call outcome as the oracles need it: `code` is undefined for a success. */
export interface CallView {
  readonly code: string | undefined;
}

export interface ChainView {
  readonly messages: readonly unknown[];
  readonly calls: readonly CallView[];
}

export interface ChainRequest {
  readonly history: readonly unknown[];
  /** The assistant message. */
  readonly assistant: unknown;
  readonly tools: FuzzRegistry;
  readonly policy: FuzzPolicy;
  readonly signal: AbortSignal | undefined;
  readonly data: unknown;
}

function callViews(results: unknown): CallView[] {
  return (results as readonly { type: string; code?: string }[]).map((result) => ({
    code: result.type === 'error' ? result.code : undefined,
  }));
}

/** Target 1: one model output through the chain. */
export async function runChain(request: ChainRequest): Promise<ChainView> {
  const runtime = createToolRuntime({ tools: request.tools.registry, ...policyOptions(request.policy) });
  const result = await runtime.executeToolCalls({
    messages: request.history as Message[],
    response: request.assistant as never,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    data: request.data,
  });
  return { messages: result.messages, calls: callViews(result.results) };
}

/** The guard's memory as the fuzzer plays it: what a load hands back, what a save was given. */
export interface FuzzStore {
  load(sessionId: string): Promise<unknown>;
  save(sessionId: string, state: unknown): Promise<void>;
}

/**
 * The fuzzer's load and save as the store port, for the session's guard memory: `get` of the guard's key
 * hands back whatever `load` gives (thrown, hung or hostile as it is), `set` saves without a version
 * check. Every other key (counters, idempotency records) is a plain `MemoryStore`'s.
 */
function asStore(fuzz: FuzzStore): Store {
  const guard = storeKey(FUZZ_SESSION, 'guard');
  const memory = new MemoryStore();
  let version = 0;
  return storeWith(
    {
      get: (key) => {
        if (key !== guard) return memory.get(key);
        const loading = fuzz.load(key);
        return Promise.resolve(loading).then((value) =>
          value === undefined ? undefined : { value, version },
        );
      },
      set: async (key, value, options) => {
        if (key !== guard) return memory.set(key, value, options);
        await fuzz.save(key, value);
        version++;
        return { ok: true, version };
      },
    },
    memory,
  );
}

const FUZZ_SESSION = 'fuzz-session';

export interface LoopRequest {
  readonly history: readonly unknown[];
  readonly model: Model;
  readonly tools: FuzzRegistry;
  readonly policy: FuzzPolicy;
  readonly maxRoundTrips: number;
  readonly timeBudgetMs: number;
  readonly tokenBudget: number | undefined;
  /** `default`: the guard with its defaults; `off`; or tight thresholds. */
  readonly guard: 'default' | 'off' | 'tight';
  readonly finalAnswer: boolean;
  readonly throwOnStop: boolean;
  readonly store: FuzzStore | undefined;
  readonly signal: AbortSignal | undefined;
  readonly data: unknown;
}

export interface LoopView {
  readonly messages: readonly unknown[];
  readonly roundTrips: number;
  readonly usage: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly totalTokens: number;
  };
  readonly toolCalls: number;
}

const TIGHT_GUARD = { repeatLimit: 2, sameResultLimit: 2, noProgressRounds: 2, maxCyclePeriod: 2 };

/** Target 2: the tool loop, over a scripted model. */
export async function runLoop(request: LoopRequest): Promise<LoopView> {
  const outcome = await runToolLoop({
    model: request.model,
    messages: request.history as Message[],
    tools: request.tools.registry,
    ...policyOptions(request.policy),
    maxRoundTrips: request.maxRoundTrips,
    timeBudgetMs: request.timeBudgetMs,
    ...(request.tokenBudget === undefined ? {} : { tokenBudget: request.tokenBudget }),
    ...(request.guard === 'default' ? {} : { guard: request.guard === 'off' ? false : TIGHT_GUARD }),
    finalAnswer: request.finalAnswer,
    throwOnStop: request.throwOnStop,
    ...(request.store === undefined ? {} : { store: asStore(request.store), sessionId: FUZZ_SESSION }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    data: request.data,
  });
  return {
    messages: outcome.messages,
    roundTrips: outcome.roundTrips,
    usage: outcome.usage,
    toolCalls: outcome.toolCalls,
  };
}

/**
 * A rejection the API documents: one of toolwarden's own error classes, or, for a request the caller
 * aborted, the signal's reason. Anything else (a raw TypeError, a tool's or store's own error passed
 * through, a Proxy) is an undocumented rejection.
 */
export function isDocumentedRejection(error: unknown, signal: AbortSignal | undefined): boolean {
  try {
    if (ToolwardenError.isInstance(error)) return true;
  } catch {
    return false;
  }
  return signal?.aborted === true && error === signal.reason;
}

/** The callback a `CallbackError` names (`store.get`, `handoff`, ...), if the error is one. */
export function failedCallbackOf(error: unknown): string | undefined {
  return CallbackError.isInstance(error) ? error.callback : undefined;
}

/** The history a documented rejection carries (the partial result, or a stopped outcome), if any. */
export function partialHistoryOf(error: unknown): readonly unknown[] | undefined {
  const carrier = error as { partialResult?: { messages?: unknown }; outcome?: { messages?: unknown } };
  const messages = carrier.partialResult?.messages ?? carrier.outcome?.messages;
  return Array.isArray(messages) ? messages : undefined;
}

/** Rounds in the loop guard's window of a state the loop saved to its store (undefined: not readable). */
export function savedGuardRounds(state: unknown): number | undefined {
  try {
    const window = (state as { window?: unknown } | null)?.window;
    return Array.isArray(window) ? window.length : undefined;
  } catch {
    return undefined;
  }
}

export function transientError(message: string): Error {
  return new TransientToolError({ message });
}

export function fatalError(message: string): Error {
  return new FatalToolError({ message });
}

/** Tool-message codes of calls that never reached their tool: they do not count toward the limits. */
export const NOT_ADMITTED_CODES: ReadonlySet<string> = new Set([
  'UNKNOWN_TOOL',
  'TOOL_CALL_LIMIT',
  'TOO_MANY_INVALID_ATTEMPTS',
]);

/** The code of a call refused by a per-turn limit. */
export const LIMIT_CODE = 'TOOL_CALL_LIMIT';

/** Text of a tool message that says its call never ran (checked against the tools' own record). */
export const NOT_EXECUTED_PATTERN = /not executed/i;

/** An AI SDK model (V3) as the fuzzer scripts it: what its nth call (0-based) answers. */
export interface AiSdkScript {
  /** `doGenerate`'s `content`. */
  content(call: number): unknown;
  /** `doStream`'s parts, its end included. */
  stream(call: number): readonly unknown[];
}

function scriptedModel(script: AiSdkScript): GeneratingModel & StreamingModel {
  let calls = 0;
  const usage = { inputTokens: { total: 3 }, outputTokens: { total: 2 } };
  const v3 = {
    specificationVersion: 'v3',
    provider: 'fuzz',
    modelId: 'fuzz',
    supportedUrls: {},
    doGenerate: async () => ({
      content: script.content(calls++),
      usage,
      finishReason: { unified: 'stop', raw: 'stop' },
      warnings: [],
    }),
    doStream: async () => {
      const parts = script.stream(calls++);
      let at = 0;
      return {
        stream: new ReadableStream<unknown>({
          pull(controller) {
            if (at < parts.length) controller.enqueue(parts[at++]);
            else controller.close();
          },
        }),
      };
    },
  } as unknown as LanguageModelV3;
  return fromAiSdkModel(v3);
}

const ANSWER_REQUEST = () => ({ messages: [], tools: [], signal: new AbortController().signal });

/** Target 3, the whole answer: `fromAiSdkModel(...).generate`, its first call. */
export function generateAiSdkAnswer(script: AiSdkScript): Promise<unknown> {
  return Promise.resolve().then(() => scriptedModel(script).generate(ANSWER_REQUEST()));
}

/** Target 3, the streamed answer: `fromAiSdkModel(...).stream`, collected as the loop collects it. */
export function streamAiSdkAnswer(script: AiSdkScript): Promise<unknown> {
  return Promise.resolve().then(() => collectModelStream(scriptedModel(script).stream(ANSWER_REQUEST())));
}

/** The calls a broken-off stream had assembled (`ModelStreamError.partial`), if the error is one. */
export function partialCallsOf(error: unknown): readonly unknown[] | undefined {
  return ModelStreamError.isInstance(error) ? error.partial.toolCalls : undefined;
}

/** Target 3 through the loop: a run over the scripted model, by `generate` or by its stream. */
export async function runAiSdkLoop(request: {
  readonly script: AiSdkScript;
  readonly tools: FuzzRegistry;
  readonly streamDeltas: boolean;
  readonly data: unknown;
}): Promise<{ readonly messages: readonly unknown[] }> {
  const outcome = await runToolLoop({
    model: scriptedModel(request.script),
    messages: [{ role: 'user', content: 'go' }],
    tools: request.tools.registry,
    streamDeltas: request.streamDeltas,
    maxRoundTrips: 3,
    timeBudgetMs: 1_000,
    data: request.data,
  });
  return { messages: outcome.messages };
}

/** The paused run of the state target: two refunds wait for a person, the read of the same round ran. */
const REFUND_ROUND = assistantWithCalls([
  { name: 'refundOrder', arguments: { orderId: 'A-1' }, id: 'r1' },
  { name: 'refundOrder', arguments: { orderId: 'B-2' }, id: 'r2' },
  { name: 'getOrder', arguments: { orderId: 'A-1' }, id: 'g1' },
]);
const ORDER_INPUT = {
  type: 'object',
  properties: { orderId: { type: 'string' } },
  required: ['orderId'],
} as const;
/** The calls that wait in the paused state, in order, and the order each refunds. */
export const WAITING_CALLS: readonly { readonly id: string; readonly orderId: string }[] = [
  { id: 'r1', orderId: 'A-1' },
  { id: 'r2', orderId: 'B-2' },
];
const refundsNeedAPerson = ({ toolName }: { readonly toolName: string }) =>
  toolName === 'refundOrder'
    ? { type: 'ask' as const, reason: 'refunds need a person' }
    : { type: 'run' as const };

/** What the state target's tools did in one run: the orders refunded and read. */
export interface ShopRecord {
  readonly refunds: string[];
  readonly reads: string[];
}

/** The shop's tools (refunds need a person, by `decide`), recording into the run's `data`. */
export function createShopRegistry(): FuzzRegistry {
  const order = (args: unknown) => String((args as { orderId?: unknown }).orderId);
  return createFuzzRegistry([
    {
      name: 'refundOrder',
      effect: 'write',
      input: ORDER_INPUT,
      execute: (args, context) => (context.data as ShopRecord).refunds.push(order(args)),
    },
    {
      name: 'getOrder',
      effect: 'read',
      input: ORDER_INPUT,
      execute: (args, context) => (context.data as ShopRecord).reads.push(order(args)),
    },
  ]);
}

/** Runs the refund round until it pauses; its saved state as JSON text (the seed of every state case). */
export async function pausedStateText(shop: FuzzRegistry): Promise<string> {
  const outcome = await runToolLoop({
    model: new ScriptedModel({ script: [REFUND_ROUND] }),
    messages: [{ role: 'user', content: 'Refund orders A-1 and B-2, then tell me the status of A-1.' }],
    runtime: createToolRuntime({ tools: shop.registry, decide: refundsNeedAPerson }),
    data: { refunds: [], reads: [] } satisfies ShopRecord,
  });
  if (outcome.type !== 'interrupted')
    throw new Error(`fuzz: the refund round did not pause (${outcome.type})`);
  return JSON.stringify(outcome.state);
}

/** Target 4: `restoreRunState` of a saved state (an object or JSON text). */
export function restoreState(saved: unknown): unknown {
  return restoreRunState(saved);
}

/** The only rejection `restoreRunState` documents. */
export const isRunStateError = (error: unknown): boolean => RunStateError.isInstance(error);

/** Target 4, resumed: the state through a runtime with a `MemoryStore`, the waiting calls decided. */
export async function resumeState(request: {
  readonly saved: unknown;
  readonly shop: FuzzRegistry;
  readonly decisions: Readonly<Record<string, 'run' | 'deny'>>;
  readonly record: ShopRecord;
}): Promise<{ readonly messages: readonly unknown[] }> {
  const runtime = createToolRuntime({
    tools: request.shop.registry,
    store: new MemoryStore(),
    decide: refundsNeedAPerson,
  });
  const done = { role: 'assistant' as const, content: 'Done.' };
  const outcome = await runToolLoop({
    from: request.saved as string,
    runtime,
    model: new ScriptedModel({ script: [done, done, done] }),
    decisions: request.decisions,
    maxRoundTrips: 4,
    data: request.record,
  });
  return { messages: outcome.messages };
}

/** Target 4, the proxy's config file: its text through `parseProxyConfigText`. */
export function parseConfigText(text: string): unknown {
  return parseProxyConfigText(text, 'fuzz');
}

/** The only rejection the config's parsers document. */
export const isProxyConfigError = (error: unknown): boolean => ProxyConfigError.isInstance(error);

/** The proxy config of docs/mcp.md, every key set (the seed of every config case). */
export const FULL_PROXY_CONFIG = {
  $schema: 'https://example.com/toolwarden-proxy.json',
  limits: { perTool: 50, total: 300, tools: { sequentialthinking: 100 } },
  loopGuard: { repeatLimit: 3, hints: { sequentialthinking: { ignoreFields: ['thoughtHistoryLength'] } } },
  timeouts: { defaultMs: 20000, tools: { search_files: 60000 } },
  outputContracts: { default: 'from-server', tools: { echo: { type: 'object' }, 'get-env': 'none' } },
  redactErrors: true,
  idempotentWrites: { tools: ['create_entities', 'write_file'], store: { sqlite: './toolwarden.db' } },
  confirm: { tools: 'destructive', ifNoElicitation: 'allow-and-audit' },
  allow: ['*'],
  deny: ['move_file', '*_delete'],
  audit: { jsonl: './toolwarden-audit.jsonl' },
  telemetry: false,
  trustAnnotations: false,
  upstream: { env: { pass: ['HOME', 'LANG'], set: { MEMORY_FILE_PATH: '/tmp/memory.jsonl' } } },
};

/** The gateway's wires the fuzzers drive: chat completions, Anthropic Messages, OpenAI Responses. */
export type GatewayWireName = 'chat' | 'anthropic' | 'responses';

/** What the gateway makes of one request body: what it sends the provider, normally and with tools off. */
export interface GatewayRequestView {
  /** The body sent upstream; undefined when the app's own bytes go. */
  readonly body: string | undefined;
  readonly toolsOffBody: string;
  readonly verdict: string;
}

const GATEWAY_GUARD = resolveGuard({});
const GATEWAY_POLICY = {
  limits: { perTool: 3, total: 5, roundTrips: 4, tools: {} },
  guard: GATEWAY_GUARD,
  effectOf: () => 'unknown' as const,
  redact: { toolResults: true, arguments: false },
  onStop: 'final-answer' as const,
};
const GATEWAY_CONFIG = { thresholds: GATEWAY_GUARD, hintsOf: hintsByTool(() => undefined, {}) };

/**
 * Target 5a: a request body through the gateway's chat wire (`readChatRequest`), its session named, its
 * turn replayed and an answer judged, and the bodies it would send; undefined when the wire would pass the
 * body through unread.
 */
export function gatewayRequest(
  body: unknown,
  header: string | undefined,
  redactResults: boolean,
  wire: GatewayWireName = 'chat',
): GatewayRequestView | undefined {
  const read = { chat: readChatRequest, anthropic: readMessagesRequest, responses: readResponsesRequest }[
    wire
  ];
  let request = read(body, { redactResults });
  // A chained Responses request (or one in a conversation the provider keeps) read as the gateway reads it
  // when it has no memory of what came before.
  const chain = request?.chain;
  if (chain !== undefined && (chain.previous !== undefined || chain.conversation !== undefined))
    request = chain.withMemory(undefined);
  if (request === undefined) return undefined;
  sessionIdentity(header, request.identity);
  const replay = replayTurn(EMPTY_GUARD_STATE, request.turn, GATEWAY_POLICY, GATEWAY_CONFIG);
  const verdict = judgeAnswer(
    request.turn,
    replay,
    [{ id: 'x', name: 'getStatus', arguments: '{}' }],
    GATEWAY_POLICY,
  );
  return {
    body: request.body(replay.notes),
    toolsOffBody: request.toolsOffBody(replay.notes, 'answer now'),
    verdict: verdict.kind,
  };
}

/** What the app's stream got, piece by piece, and at which step. */
export interface GatewayStreamView {
  readonly pieces: readonly { readonly text: string; readonly phase: 'before' | 'released' | 'ended' }[];
  readonly decided: boolean;
}

/**
 * Target 5b: a provider's stream through the gateway's chat stream reader as the gateway drives it:
 * chunks parsed, the answer judged (`verdict`) when complete, then released or finished with text, and a
 * stream that ends early cut cleanly.
 */
export function gatewayStream(
  chunks: readonly string[],
  verdict: 'release' | 'stop',
  redactArguments: boolean,
  wire: GatewayWireName = 'chat',
): GatewayStreamView {
  const parser = createSseParser(1 << 20);
  const options = { redactArguments, maxHeldBytes: 1 << 20 };
  const reader =
    wire === 'chat'
      ? new ChatStreamReader(options)
      : wire === 'anthropic'
        ? new MessagesStreamReader(options)
        : new ResponsesStreamReader(options);
  const pieces: { text: string; phase: 'before' | 'released' | 'ended' }[] = [];
  let phase: 'before' | 'released' = 'before';
  let decided = false;
  let stopped = false;
  const handle = (event: ReturnType<typeof parser.push>[number]) => {
    const step = reader.push(event);
    pieces.push({ text: step.write, phase });
    if (!step.decide || decided) return;
    decided = true;
    // As the gateway judges: an answer without calls always passes.
    if (verdict === 'stop' && reader.answer().calls.length > 0) {
      pieces.push({ text: reader.finish('stopped'), phase: 'ended' });
      stopped = true;
      return;
    }
    phase = 'released';
    pieces.push({ text: reader.release(), phase });
  };
  for (const chunk of chunks) {
    for (const event of parser.push(chunk)) {
      handle(event);
      if (stopped) return { pieces, decided };
    }
  }
  // As the gateway does: an event the stream cut off is dropped.
  parser.end();
  if (!stopped && !reader.ended()) pieces.push({ text: reader.cut(), phase: 'ended' });
  return { pieces, decided };
}

/** The only errors the gateway's readers document: a session header that is no id, an event or held calls past their bound. */
export const isGatewayDocumented = (error: unknown): boolean =>
  error instanceof SessionHeaderError ||
  error instanceof SseEventTooLargeError ||
  error instanceof HeldTooMuchError ||
  error instanceof HeldMessagesTooMuchError ||
  error instanceof HeldResponsesTooMuchError;
