import type { Meter } from '@opentelemetry/api';
import type { LoopOutcome } from '../run/loop-outcome.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOLWARDEN_ERROR_CLASS,
  ATTR_TOOLWARDEN_LIMIT,
  ATTR_TOOLWARDEN_RUN_OUTCOME,
  ATTR_TOOLWARDEN_STOP_REASON,
  EXECUTE_TOOL_DURATION_BUCKETS,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOLWARDEN_IDEMPOTENT_REPLAYS,
  METRIC_TOOLWARDEN_INTERRUPTS,
  METRIC_TOOLWARDEN_LIMIT_HITS,
  METRIC_TOOLWARDEN_RUN_ROUND_TRIPS,
  METRIC_TOOLWARDEN_RUN_STOPS,
  METRIC_TOOLWARDEN_TOOL_ERRORS,
  ROUND_TRIP_BUCKETS,
} from './semconv.js';

/** The instruments of one `otelInstrumentation`, made once from its meter. */
export interface RunMetrics {
  /** One tool call's duration, in seconds; `errorType` is the failed call's code. */
  readonly recordToolDuration: (seconds: number, toolName: string, errorType: string | undefined) => void;
  /** A run's end: round trips, the stop and its limit, the interrupt, and the failed and replayed calls. */
  readonly recordRun: (outcome: LoopOutcome) => void;
}

export function createRunMetrics(meter: Meter): RunMetrics {
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
  const counter = (name: string, description: string, unit: string) =>
    meter.createCounter(name, { description, unit });
  const stops = counter(METRIC_TOOLWARDEN_RUN_STOPS, 'Runs that stopped, by reason', '{run}');
  const limitHits = counter(
    METRIC_TOOLWARDEN_LIMIT_HITS,
    'Stops at a ceiling (round trips, tokens, time, cost) or a call limit',
    '{stop}',
  );
  const toolErrors = counter(
    METRIC_TOOLWARDEN_TOOL_ERRORS,
    'Failed tool calls, by error class and code',
    '{call}',
  );
  const replays = counter(
    METRIC_TOOLWARDEN_IDEMPOTENT_REPLAYS,
    'Writes answered from their idempotency record instead of running again',
    '{call}',
  );
  const interrupts = counter(METRIC_TOOLWARDEN_INTERRUPTS, 'Runs interrupted to wait for approvals', '{run}');
  return {
    recordToolDuration: (seconds, toolName, errorType) => {
      toolDuration.record(seconds, {
        [ATTR_GEN_AI_TOOL_NAME]: toolName,
        ...(errorType === undefined ? {} : { [ATTR_ERROR_TYPE]: errorType }),
      });
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
      // No tool name on errors: an unknown tool's name is the model's text (unbounded cardinality).
      for (const result of outcome.toolResults) {
        if (result.replayOf !== undefined) replays.add(1, { [ATTR_GEN_AI_TOOL_NAME]: result.toolName });
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
