// Every span, attribute and metric name toolwarden's OpenTelemetry instrumentation writes, in one place.
// The `gen_ai.*` and `error.type` names follow the OpenTelemetry GenAI semantic conventions (Development
// status: execute tool span, invoke agent span, gen_ai.execute_tool.duration). They are copied here as
// the conventions' README asks of instrumentation libraries, rather than imported from the incubating
// package at run time. toolwarden's own names start with `toolwarden.`.

const operations = Object.freeze({
  /** A tool call's span (`gen_ai.operation.name`), and the first word of its name. */
  executeTool: 'execute_tool',
  /** A run's span, and its name (the convention's `invoke_agent`, no agent name). */
  invokeAgent: 'invoke_agent',
  /** A model call's span (`chat {model}`): the gateway's calls to the provider. */
  chat: 'chat',
} as const);

const attributes = Object.freeze({
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolDescription: 'gen_ai.tool.description',
  /** `function`: a tool the application runs itself (client side), which every toolwarden tool is. */
  toolType: 'gen_ai.tool.type',
  /** Opt-in (`recordContent: true`): the redacted summary of the arguments, a JSON text. */
  toolCallArguments: 'gen_ai.tool.call.arguments',
  conversationId: 'gen_ai.conversation.id',
  /** The run span's agent name (`agentName`); the span is then `invoke_agent {name}`. */
  agentName: 'gen_ai.agent.name',
  /** The model provider (`providerName`): the convention requires it; the model port does not know it. */
  providerName: 'gen_ai.provider.name',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  /** A failed call's code (`TOOL_ERROR`, `TOOL_CALL_LIMIT`, ...), a stopped run's reason, or `_OTHER`. */
  errorType: 'error.type',
  /** toolwarden's run id (`outcome.runId`). */
  runId: 'toolwarden.run.id',
  runResumed: 'toolwarden.run.resumed',
  /** `completed`, `stopped` or `interrupted`. */
  runOutcome: 'toolwarden.run.outcome',
  stopReason: 'toolwarden.stop.reason',
  roundTrips: 'toolwarden.run.round_trips',
  toolCalls: 'toolwarden.run.tool_calls',
  /** Calls an interrupted run waits on (approvals). */
  pendingCalls: 'toolwarden.run.pending_calls',
  /** The error class of a failed call (`transient`, `input`, ...). */
  errorClass: 'toolwarden.error.class',
  /** How many times the tool's execute ran for the call. */
  attempts: 'toolwarden.tool.attempts',
  /** Which limit a stop met: `round-trips`, `tokens`, `time`, `cost`, or a call limit's scope. */
  limit: 'toolwarden.limit',
  /** On an `execute_tool` span: the tool's result broke its output contract (under any policy). */
  contractViolation: 'toolwarden.contract.violation',
  /** A decision given on resume: `approved` or `denied`. */
  approvalDecision: 'toolwarden.approval.decision',
  /** The model the request names (a `chat` span). */
  requestModel: 'gen_ai.request.model',
  /** The provider's finish reasons of the answer (a `chat` span). */
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  /** The provider's host (a `chat` span). */
  serverAddress: 'server.address',
  /** The provider's HTTP status (a `chat` span). */
  httpStatus: 'http.response.status_code',
  /** A gateway's `chat` span: `answer` (the app's request) or `final-answer` (the last, tools-off request of a stopped turn). */
  gatewayPurpose: 'toolwarden.gateway.purpose',
} as const);

const values = Object.freeze({
  /** `gen_ai.tool.type` of every toolwarden tool. */
  toolTypeFunction: 'function',
  /** `error.type` of a run that rejected with something other than a toolwarden error. */
  errorTypeOther: '_OTHER',
} as const);

const metrics = Object.freeze({
  /** Histogram (s): how long a tool call took, attempts and retries included (the span's duration). */
  executeToolDuration: 'gen_ai.execute_tool.duration',
  /** Histogram ({round_trip}): model calls per run. */
  runRoundTrips: 'toolwarden.run.round_trips',
  /** Counter ({run}): runs that ended, by outcome and stop reason. */
  runStops: 'toolwarden.run.stops',
  /** Counter ({stop}): stops at a ceiling or a call limit, by limit. */
  limitHits: 'toolwarden.limit.hits',
  /** Counter ({call}): failed calls, by error class and code. */
  toolErrors: 'toolwarden.tool.errors',
  /** Counter ({call}): writes answered from their idempotency record instead of running again. */
  idempotentReplays: 'toolwarden.idempotency.replays',
  /** Counter ({run}): runs interrupted to wait for approvals. */
  interrupts: 'toolwarden.run.interrupts',
  /** Counter ({call}): every tool call of a run, refused and replayed ones included (no attributes). */
  toolCalls: 'toolwarden.tool.calls',
  /**
   * Counter ({call}): calls of a run whose tool and canonical arguments an earlier call of the run already
   * had (no attributes). The repeated-fingerprint hit rate is `toolwarden.fingerprint.repeats` over
   * `toolwarden.tool.calls`: when it rises, fix the tool's description or answer, not the ceiling.
   */
  fingerprintRepeats: 'toolwarden.fingerprint.repeats',
  /** Counter ({call}): results that broke their tool's output contract, under any policy, by tool. */
  contractViolations: 'toolwarden.contract.violations',
  /** Counter ({decision}): decisions given on resume, by decision and tool. */
  approvals: 'toolwarden.approvals',
} as const);

const buckets = Object.freeze({
  /** The convention's buckets for `gen_ai.execute_tool.duration`, in seconds. */
  executeToolDuration: Object.freeze([
    0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
  ]) as readonly number[],
  /** `toolwarden.run.round_trips`, in model calls. */
  runRoundTrips: Object.freeze([1, 2, 3, 5, 8, 13, 21, 34, 55, 89]) as readonly number[],
} as const);

/**
 * Every name toolwarden/otel writes (span operations, attributes, their fixed values, metrics and histogram
 * buckets), frozen: `OTEL_NAMES.attributes.toolName` is `gen_ai.tool.name`.
 */
export const OTEL_NAMES = Object.freeze({
  /** The instrumentation scope's name: the default tracer's and meter's. */
  instrumentation: 'toolwarden',
  operations,
  attributes,
  values,
  metrics,
  buckets,
} as const);
