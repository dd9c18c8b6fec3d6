import { type Counter, createNoopMeter, type Meter } from '@opentelemetry/api';
import type { LoopOutcome } from '../core/loop-outcome.js';
import { countRepeatedCalls } from './count-repeated-calls.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOLWARDEN_APPROVAL_DECISION,
  ATTR_TOOLWARDEN_ERROR_CLASS,
  ATTR_TOOLWARDEN_LIMIT,
  ATTR_TOOLWARDEN_RUN_OUTCOME,
  ATTR_TOOLWARDEN_STOP_REASON,
  EXECUTE_TOOL_DURATION_BUCKETS,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOLWARDEN_APPROVALS,
  METRIC_TOOLWARDEN_CONTRACT_VIOLATIONS,
  METRIC_TOOLWARDEN_FINGERPRINT_REPEATS,
  METRIC_TOOLWARDEN_IDEMPOTENT_REPLAYS,
  METRIC_TOOLWARDEN_INTERRUPTS,
  METRIC_TOOLWARDEN_LIMIT_HITS,
  METRIC_TOOLWARDEN_RUN_ROUND_TRIPS,
  METRIC_TOOLWARDEN_RUN_STOPS,
  METRIC_TOOLWARDEN_TOOL_CALLS,
  METRIC_TOOLWARDEN_TOOL_ERRORS,
  ROUND_TRIP_BUCKETS,
} from './semconv.js';

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
  const toolDuration = meter.createHistogram(METRIC_GEN_AI_EXECUTE_TOOL_DURATION, {
    description: 'Duration of tool executions (attempts and retries included)',
    unit: 's',
    advice: { explicitBucketBoundaries: [...EXECUTE_TOOL_DURATION_BUCKETS] },
  });
  const roundTrips = meter.createHistogram(METRIC_TOOLWARDEN_RUN_ROUND_TRIPS, {
    description: 'Model calls per run',
    unit: '{round_trip}',
    advice: { explicitBucketBoundaries: [...ROUND_TRIP_BUCKETS] },
  });
  const { stops, limitHits, toolErrors, replays, interrupts, toolCalls, repeats, violations, approvals } =
    createCounters(meter);
  return {
    enabled: true,
    recordToolDuration: (seconds, toolName, errorType) => {
      toolDuration.record(seconds, {
        [ATTR_GEN_AI_TOOL_NAME]: toolName,
        ...(errorType === undefined ? {} : { [ATTR_ERROR_TYPE]: errorType }),
      });
    },
    recordContractViolation: (toolName) => {
      violations.add(1, { [ATTR_GEN_AI_TOOL_NAME]: toolName });
    },
    recordRun: (outcome) => {
      roundTrips.record(outcome.roundTrips, { [ATTR_TOOLWARDEN_RUN_OUTCOME]: outcome.type });
      if (outcome.type === 'stopped') {
        stops.add(1, { [ATTR_TOOLWARDEN_STOP_REASON]: outcome.reason });
        const limit = limitOf(outcome);
        if (limit !== undefined) {
          limitHits.add(1, { [ATTR_TOOLWARDEN_LIMIT]: limit, [ATTR_TOOLWARDEN_STOP_REASON]: outcome.reason });
        }
      }
      if (outcome.type === 'interrupted') interrupts.add(1);
      // Both always (0 too), so the hit rate's two series exist; the calls of this part of the run only.
      toolCalls.add(outcome.toolResults.length);
      repeats.add(countRepeatedCalls(outcome.steps));
      // No tool name on errors: an unknown tool's name is the model's text (unbounded cardinality).
      for (const result of outcome.toolResults) {
        if (result.replayOf !== undefined) replays.add(1, { [ATTR_GEN_AI_TOOL_NAME]: result.toolName });
        // A decided call waited for a decision: its tool is a known one.
        if (result.approval !== undefined) {
          approvals.add(1, {
            [ATTR_TOOLWARDEN_APPROVAL_DECISION]: result.approval,
            [ATTR_GEN_AI_TOOL_NAME]: result.toolName,
          });
        }
        if (result.type === 'error') {
          toolErrors.add(1, {
            [ATTR_TOOLWARDEN_ERROR_CLASS]: result.errorClass,
            [ATTR_ERROR_TYPE]: result.code,
          });
        }
      }
    },
  };
}

/** toolwarden's counters: name, description, unit. */
const COUNTERS = {
  stops: [METRIC_TOOLWARDEN_RUN_STOPS, 'Runs that stopped, by reason', '{run}'],
  limitHits: [METRIC_TOOLWARDEN_LIMIT_HITS, 'Stops at a ceiling or a call limit, by limit', '{stop}'],
  toolErrors: [METRIC_TOOLWARDEN_TOOL_ERRORS, 'Failed tool calls, by error class and code', '{call}'],
  replays: [METRIC_TOOLWARDEN_IDEMPOTENT_REPLAYS, 'Writes answered from their idempotency record', '{call}'],
  interrupts: [METRIC_TOOLWARDEN_INTERRUPTS, 'Runs interrupted to wait for approvals', '{run}'],
  toolCalls: [METRIC_TOOLWARDEN_TOOL_CALLS, 'Tool calls of runs', '{call}'],
  repeats: [METRIC_TOOLWARDEN_FINGERPRINT_REPEATS, 'Calls repeating an earlier call of the run', '{call}'],
  violations: [METRIC_TOOLWARDEN_CONTRACT_VIOLATIONS, 'Results that broke the output contract', '{call}'],
  approvals: [METRIC_TOOLWARDEN_APPROVALS, 'Decisions given on resume, by decision', '{decision}'],
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
