// Every span, attribute and metric name toolwarden's OpenTelemetry instrumentation writes, in one place.
// The `gen_ai.*` and `error.type` names follow the OpenTelemetry GenAI semantic conventions (Development
// status: execute tool span, invoke agent span, gen_ai.execute_tool.duration). They are copied here as
// the conventions' README asks of instrumentation libraries, rather than imported from the incubating
// package at run time. toolwarden's own names start with `toolwarden.`.

/** The operation of a tool call's span (`gen_ai.operation.name`), and the first word of its name. */
export const OPERATION_EXECUTE_TOOL = 'execute_tool';
/** The operation of a run's span, and its name (the convention's `invoke_agent`, no agent name). */
export const OPERATION_INVOKE_AGENT = 'invoke_agent';

export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const ATTR_GEN_AI_TOOL_DESCRIPTION = 'gen_ai.tool.description';
/** `function`: a tool the application runs itself (client side), which every toolwarden tool is. */
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
export const GEN_AI_TOOL_TYPE_FUNCTION = 'function';
/** Opt-in (`recordContent: true`): the redacted summary of the arguments, a JSON text. */
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
/** The run span's agent name (`agentName`); the span is then `invoke_agent {name}`. */
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
/** The model provider (`providerName`): the convention requires it; the model port does not know it. */
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
/** A failed call's code (`TOOL_ERROR`, `TOOL_CALL_LIMIT`, ...), a stopped run's reason, or `_OTHER`. */
export const ATTR_ERROR_TYPE = 'error.type';
export const ERROR_TYPE_OTHER = '_OTHER';

/** toolwarden's run id (`outcome.runId`). */
export const ATTR_TOOLWARDEN_RUN_ID = 'toolwarden.run.id';
export const ATTR_TOOLWARDEN_RUN_RESUMED = 'toolwarden.run.resumed';
/** `completed`, `stopped` or `interrupted`. */
export const ATTR_TOOLWARDEN_RUN_OUTCOME = 'toolwarden.run.outcome';
export const ATTR_TOOLWARDEN_STOP_REASON = 'toolwarden.stop.reason';
export const ATTR_TOOLWARDEN_ROUND_TRIPS = 'toolwarden.run.round_trips';
export const ATTR_TOOLWARDEN_TOOL_CALLS = 'toolwarden.run.tool_calls';
/** Calls an interrupted run waits on (approvals). */
export const ATTR_TOOLWARDEN_PENDING_CALLS = 'toolwarden.run.pending_calls';
/** The error class of a failed call (`transient`, `input`, ...). */
export const ATTR_TOOLWARDEN_ERROR_CLASS = 'toolwarden.error.class';
/** How many times the tool's execute ran for the call. */
export const ATTR_TOOLWARDEN_ATTEMPTS = 'toolwarden.tool.attempts';
/** Which limit a stop met: `round-trips`, `tokens`, `time`, `cost`, or a call limit's scope. */
export const ATTR_TOOLWARDEN_LIMIT = 'toolwarden.limit';
/** On an `execute_tool` span: the tool's result broke its output contract (under any policy). */
export const ATTR_TOOLWARDEN_CONTRACT_VIOLATION = 'toolwarden.contract.violation';
/** A decision given on resume: `approved` or `denied`. */
export const ATTR_TOOLWARDEN_APPROVAL_DECISION = 'toolwarden.approval.decision';

/** Histogram (s): how long a tool call took, attempts and retries included (the span's duration). */
export const METRIC_GEN_AI_EXECUTE_TOOL_DURATION = 'gen_ai.execute_tool.duration';
/** The convention's buckets for gen_ai.execute_tool.duration, in seconds. */
export const EXECUTE_TOOL_DURATION_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
/** Histogram ({round_trip}): model calls per run. */
export const METRIC_TOOLWARDEN_RUN_ROUND_TRIPS = 'toolwarden.run.round_trips';
export const ROUND_TRIP_BUCKETS: readonly number[] = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89];
/** Counter ({run}): runs that ended, by outcome and stop reason. */
export const METRIC_TOOLWARDEN_RUN_STOPS = 'toolwarden.run.stops';
/** Counter ({stop}): stops at a ceiling or a call limit, by limit. */
export const METRIC_TOOLWARDEN_LIMIT_HITS = 'toolwarden.limit.hits';
/** Counter ({call}): failed calls, by error class and code. */
export const METRIC_TOOLWARDEN_TOOL_ERRORS = 'toolwarden.tool.errors';
/** Counter ({call}): writes answered from their idempotency record instead of running again. */
export const METRIC_TOOLWARDEN_IDEMPOTENT_REPLAYS = 'toolwarden.idempotency.replays';
/** Counter ({run}): runs interrupted to wait for approvals. */
export const METRIC_TOOLWARDEN_INTERRUPTS = 'toolwarden.run.interrupts';
/** Counter ({call}): every tool call of a run, refused and replayed ones included (no attributes). */
export const METRIC_TOOLWARDEN_TOOL_CALLS = 'toolwarden.tool.calls';
/**
 * Counter ({call}): calls of a run whose tool and canonical arguments an earlier call of the run already
 * had (no attributes). The repeated-fingerprint hit rate is `toolwarden.fingerprint.repeats` over
 * `toolwarden.tool.calls`: when it rises, fix the tool's description or answer, not the ceiling.
 */
export const METRIC_TOOLWARDEN_FINGERPRINT_REPEATS = 'toolwarden.fingerprint.repeats';
/** Counter ({call}): results that broke their tool's output contract, under any policy, by tool. */
export const METRIC_TOOLWARDEN_CONTRACT_VIOLATIONS = 'toolwarden.contract.violations';
/** Counter ({decision}): decisions given on resume, by decision and tool. */
export const METRIC_TOOLWARDEN_APPROVALS = 'toolwarden.approvals';
