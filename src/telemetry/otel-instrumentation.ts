import {
  type Attributes,
  context,
  type Meter,
  metrics,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { WrappedToolCall, WrapToolExecution } from '../chain/wrap-tool-execution.js';
import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../core/defaults.js';
import { CallbackError } from '../core/errors/callback-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { ToolwardenError } from '../core/errors/toolwarden-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import { summarizeArguments } from '../redact/redact.js';
import type { RunWrapper, WrappedRun } from '../run/wrap-run.js';
import { OTEL_NAMES } from './otel-names.js';
import { createRunMetrics, type RunMetrics } from './run-metrics.js';

const attr = OTEL_NAMES.attributes;

/** What `otelInstrumentation` records with, and how much. */
export interface OtelInstrumentationOptions {
  /** Default: `trace.getTracer('toolwarden')`, from the global API (a no-op until an SDK registers a provider). */
  readonly tracer?: Tracer;
  /** Default: `metrics.getMeter('toolwarden')`, from the global API. */
  readonly meter?: Meter;
  /** The agent's name: the run's span is `invoke_agent {agentName}` with `gen_ai.agent.name` (default: `invoke_agent`, no name). */
  readonly agentName?: string;
  /** `gen_ai.provider.name` on the run's span (`openai`, `anthropic`, ...): the model port does not say. */
  readonly providerName?: string;
  /**
   * Put the call's arguments on its span (`gen_ai.tool.call.arguments`), as the redacted summary the tool
   * events carry (secrets, personal data masked; at most `DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS`). Default
   * false: spans carry names, ids, codes and counts only, never arguments or results.
   */
  readonly recordContent?: boolean;
}

/** `wrapToolExecution` for `createToolRuntime`, `wrapRun` for `runToolLoop` or `streamToolLoop`. */
export interface OtelInstrumentation {
  /** An `execute_tool {tool}` span around each call that runs (made active, so the tool's spans nest under it). */
  readonly wrapToolExecution: WrapToolExecution;
  /** An `invoke_agent` span around the run, parent of its tool spans, and the run's metrics. */
  readonly wrapRun: RunWrapper;
}

/**
 * OpenTelemetry spans and metrics for toolwarden, after the GenAI semantic conventions: a run is an
 * `invoke_agent` span, each call that runs an `execute_tool {tool}` span under it, and
 * `gen_ai.execute_tool.duration` plus toolwarden's own counters record what happened (see `OTEL_NAMES` and
 * docs/telemetry-and-report.md). Idempotency keys are never recorded; a replayed write did not run
 * again, so it has no span (the run counts it in `toolwarden.idempotency.replays`). Importing this registers nothing: without an SDK the global API is a no-op.
 */
export function otelInstrumentation(options: OtelInstrumentationOptions = {}): OtelInstrumentation {
  const tracer = options.tracer ?? trace.getTracer(OTEL_NAMES.instrumentation);
  const recorded = createRunMetrics(options.meter ?? metrics.getMeter(OTEL_NAMES.instrumentation));
  const recordContent = options.recordContent === true;
  // The global tracer records only once an SDK registers a provider. The API's provider is its proxy
  // before and after (`setGlobalTracerProvider` gives the proxy a delegate), so the delegate is what says
  // it; with no meter recording either, a call or a run goes through unwrapped: no SDK, no cost.
  const tracing = options.tracer !== undefined ? () => true : globalTracerRecords;
  const live = () => recorded.enabled || tracing();
  const agent = agentAttributes(options);
  return {
    wrapToolExecution: (call, next) =>
      live() ? executeToolSpan(tracer, recorded, recordContent, call, next) : next(),
    wrapRun: (run, next) => (live() ? invokeAgentSpan(tracer, recorded, agent, run, next) : next()),
  };
}

function globalTracerRecords(): boolean {
  const provider = trace.getTracerProvider();
  return (
    !(provider instanceof ProxyTracerProvider) ||
    provider.getDelegateTracer(OTEL_NAMES.instrumentation) !== undefined
  );
}

async function executeToolSpan(
  tracer: Tracer,
  recorded: RunMetrics,
  recordContent: boolean,
  call: WrappedToolCall,
  next: () => Promise<ToolCallResult>,
): Promise<ToolCallResult> {
  const attributes: Attributes = {
    [attr.operationName]: OTEL_NAMES.operations.executeTool,
    [attr.toolName]: call.toolName,
    [attr.toolCallId]: call.toolCallId,
    [attr.toolType]: OTEL_NAMES.values.toolTypeFunction,
    [attr.toolDescription]: call.tool.description,
  };
  if (recordContent) attributes[attr.toolCallArguments] = argumentSummary(call.arguments);
  const span = tracer.startSpan(`${OTEL_NAMES.operations.executeTool} ${call.toolName}`, {
    kind: SpanKind.INTERNAL,
    attributes,
  });
  const started = performance.now();
  // `next` never rejects: the chain turns every failure into a result.
  const result = await context.with(trace.setSpan(context.active(), span), next);
  const seconds = (performance.now() - started) / 1000;
  span.setAttribute(attr.attempts, result.attempts);
  // Counted here, not at the run's end: only the call whose tool ran has it, and a lone execution too.
  if (result.contractViolation === true) {
    span.setAttribute(attr.contractViolation, true);
    recorded.recordContractViolation(call.toolName);
  }
  if (result.type === 'error') {
    span.setAttributes({ [attr.errorType]: result.code, [attr.errorClass]: result.errorClass });
    span.setStatus({ code: SpanStatusCode.ERROR, message: result.code });
  }
  span.end();
  recorded.recordToolDuration(seconds, call.toolName, result.type === 'error' ? result.code : undefined);
  return result;
}

/** The run span's name and its agent attributes, from the options (checked once). */
function agentAttributes(options: OtelInstrumentationOptions): { name: string; attributes: Attributes } {
  const text = (value: unknown, option: string): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '' || value.length > 200) {
      throw new InvalidOptionsError({
        option,
        message: 'must be a non-empty string of at most 200 characters',
      });
    }
    return value;
  };
  const agentName = text(options.agentName, 'agentName');
  const providerName = text(options.providerName, 'providerName');
  return {
    name:
      agentName === undefined
        ? OTEL_NAMES.operations.invokeAgent
        : `${OTEL_NAMES.operations.invokeAgent} ${agentName}`,
    attributes: {
      ...(agentName === undefined ? {} : { [attr.agentName]: agentName }),
      ...(providerName === undefined ? {} : { [attr.providerName]: providerName }),
    },
  };
}

async function invokeAgentSpan(
  tracer: Tracer,
  recorded: RunMetrics,
  agent: { name: string; attributes: Attributes },
  run: WrappedRun,
  next: () => Promise<LoopOutcome>,
): Promise<LoopOutcome> {
  const span = tracer.startSpan(agent.name, {
    kind: SpanKind.INTERNAL,
    attributes: {
      ...agent.attributes,
      [attr.operationName]: OTEL_NAMES.operations.invokeAgent,
      [attr.runId]: run.runId,
      [attr.runResumed]: run.resumed,
      ...(run.sessionId === undefined ? {} : { [attr.conversationId]: run.sessionId }),
    },
  });
  try {
    const outcome = await context.with(trace.setSpan(context.active(), span), next);
    endRun(span, recorded, outcome, undefined);
    return outcome;
  } catch (error) {
    // A run that rejects (`CallbackError`) still carries its outcome, most of the time.
    endRun(span, recorded, CallbackError.isInstance(error) ? error.outcome : undefined, error);
    throw error;
  }
}

/** The run's totals on its span, its status, and the run's metrics; then the span ends. */
function endRun(span: Span, recorded: RunMetrics, outcome: LoopOutcome | undefined, error: unknown): void {
  if (outcome !== undefined) {
    span.setAttributes({
      [attr.runOutcome]: outcome.type,
      [attr.roundTrips]: outcome.roundTrips,
      [attr.toolCalls]: outcome.toolCalls,
      [attr.usageInputTokens]: outcome.usage.inputTokens,
      [attr.usageOutputTokens]: outcome.usage.outputTokens,
    });
    if (outcome.type === 'stopped') span.setAttribute(attr.stopReason, outcome.reason);
    if (outcome.type === 'interrupted') span.setAttribute(attr.pendingCalls, outcome.pending.length);
    recorded.recordRun(outcome);
  }
  // A stopped run did not finish its task: its span is an error, typed by the stop's reason.
  const errorType =
    error !== undefined
      ? ToolwardenError.isInstance(error)
        ? error.code
        : OTEL_NAMES.values.errorTypeOther
      : outcome?.type === 'stopped'
        ? outcome.reason
        : undefined;
  if (errorType !== undefined) {
    span.setAttribute(attr.errorType, errorType);
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
  }
  span.end();
}

/** The redacted summary of the arguments (a JSON text), as the tool events carry it. */
function argumentSummary(args: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(args);
  } catch {
    text = undefined;
  }
  return summarizeArguments(text ?? '', DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS);
}
