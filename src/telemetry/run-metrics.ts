import { type Counter, createNoopMeter, type Meter } from '@opentelemetry/api';
import type { LoopOutcome } from '../core/loop-outcome.js';
import { countRepeatedCalls } from './count-repeated-calls.js';
import { OTEL_NAMES } from './otel-names.js';

const attr = OTEL_NAMES.attributes;

/** The instruments of one `otelInstrumentation`, made once from its meter. */
export interface RunMetrics {
  /** False for the API's no-op meter: nothing is recorded, so nothing needs measuring. */
  readonly enabled: boolean;
  /** One tool call's duration, in seconds; `errorType` is the failed call's code. */
  readonly recordToolDuration: (seconds: number, toolName: string, errorType: string | undefined) => void;
  /** A call whose result broke its tool's output contract (the tool ran: its name is a known tool's). */
  readonly recordContractViolation: (toolName: string) => void;
  /**
   * A run's end: round trips, the stop and its limit, the interrupt, the calls and their repeats, and the
   * failed, replayed and decided calls.
   */
  readonly recordRun: (outcome: LoopOutcome) => void;
}

/** What records nothing: for the API's no-op meter, so no SDK costs no per-call work (no digests). */
const NO_METRICS: RunMetrics = {
  enabled: false,
  recordToolDuration: () => {},
  recordContractViolation: () => {},
  recordRun: () => {},
};

export function createRunMetrics(meter: Meter): RunMetrics {
  // Without an SDK, `metrics.getMeter` gives the API's one no-op meter: its instruments drop everything.
  if (meter === createNoopMeter()) return NO_METRICS;
  const toolDuration = meter.createHistogram(OTEL_NAMES.metrics.executeToolDuration, {
    description: 'Duration of tool executions (attempts and retries included)',
    unit: 's',
    advice: { explicitBucketBoundaries: [...OTEL_NAMES.buckets.executeToolDuration] },
  });
  const roundTrips = meter.createHistogram(OTEL_NAMES.metrics.runRoundTrips, {
    description: 'Model calls per run',
    unit: '{round_trip}',
    advice: { explicitBucketBoundaries: [...OTEL_NAMES.buckets.runRoundTrips] },
  });
  const { stops, limitHits, toolErrors, replays, interrupts, toolCalls, repeats, violations, approvals } =
    createCounters(meter);
  return {
    enabled: true,
    recordToolDuration: (seconds, toolName, errorType) => {
      toolDuration.record(seconds, {
        [attr.toolName]: toolName,
        ...(errorType === undefined ? {} : { [attr.errorType]: errorType }),
      });
    },
    recordContractViolation: (toolName) => {
      violations.add(1, { [attr.toolName]: toolName });
    },
    recordRun: (outcome) => {
      roundTrips.record(outcome.roundTrips, { [attr.runOutcome]: outcome.type });
      if (outcome.type === 'stopped') {
        stops.add(1, { [attr.stopReason]: outcome.reason });
        const limit = limitOf(outcome);
        if (limit !== undefined) {
          limitHits.add(1, { [attr.limit]: limit, [attr.stopReason]: outcome.reason });
        }
      }
      if (outcome.type === 'interrupted') interrupts.add(1);
      // Both always (0 too), so the hit rate's two series exist; the calls of this part of the run only.
      toolCalls.add(outcome.toolResults.length);
      repeats.add(countRepeatedCalls(outcome.steps));
      // No tool name on errors: an unknown tool's name is the model's text (unbounded cardinality).
      for (const result of outcome.toolResults) {
        if (result.replayOf !== undefined) replays.add(1, { [attr.toolName]: result.toolName });
        // A decided call waited for a decision: its tool is a known one.
        if (result.approval !== undefined) {
          approvals.add(1, {
            [attr.approvalDecision]: result.approval,
            [attr.toolName]: result.toolName,
          });
        }
        if (result.type === 'error') {
          toolErrors.add(1, {
            [attr.errorClass]: result.errorClass,
            [attr.errorType]: result.code,
          });
        }
      }
    },
  };
}

/** toolwarden's counters: name, description, unit. */
const COUNTERS = {
  stops: [OTEL_NAMES.metrics.runStops, 'Runs that stopped, by reason', '{run}'],
  limitHits: [OTEL_NAMES.metrics.limitHits, 'Stops at a ceiling or a call limit, by limit', '{stop}'],
  toolErrors: [OTEL_NAMES.metrics.toolErrors, 'Failed tool calls, by error class and code', '{call}'],
  replays: [OTEL_NAMES.metrics.idempotentReplays, 'Writes answered from their idempotency record', '{call}'],
  interrupts: [OTEL_NAMES.metrics.interrupts, 'Runs interrupted to wait for approvals', '{run}'],
  toolCalls: [OTEL_NAMES.metrics.toolCalls, 'Tool calls of runs', '{call}'],
  repeats: [OTEL_NAMES.metrics.fingerprintRepeats, 'Calls repeating an earlier call of the run', '{call}'],
  violations: [OTEL_NAMES.metrics.contractViolations, 'Results that broke the output contract', '{call}'],
  approvals: [OTEL_NAMES.metrics.approvals, 'Decisions given on resume, by decision', '{decision}'],
} as const;

function createCounters(meter: Meter): Record<keyof typeof COUNTERS, Counter> {
  const entries = Object.entries(COUNTERS).map(([key, [name, description, unit]]) => [
    key,
    meter.createCounter(name, { description, unit }),
  ]);
  return Object.fromEntries(entries) as Record<keyof typeof COUNTERS, Counter>;
}

/** The limit a stopped run met, when it stopped at one. */
function limitOf(outcome: Extract<LoopOutcome, { type: 'stopped' }>): string | undefined {
  const { evidence } = outcome;
  switch (evidence.kind) {
    case 'ceiling':
      return evidence.limit;
    case 'limit':
      return evidence.scope;
    case 'loop':
    case 'condition':
    case 'error':
      return undefined;
    default: {
      const unreachable: never = evidence;
      throw new TypeError(`unknown stop evidence ${String(unreachable)}`);
    }
  }
}
