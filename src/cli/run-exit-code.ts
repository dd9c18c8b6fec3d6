import type { LoopOutcome, StopReason } from '../core/loop-outcome.js';

/**
 * The exit codes of `toolwarden run`: what a script can tell apart without reading the output. 2 is a
 * usage error (bad arguments, a tools module that does not load), as for the other commands.
 */
export const RUN_EXIT_CODES = {
  completed: 0,
  /** The model, a tool or a callback failed, or the store was down. */
  error: 1,
  usage: 2,
  /** The loop guard stopped a loop. */
  loop: 3,
  /** A limit: the ceiling of round trips, a token, time or cost budget, a call limit. */
  limit: 4,
  /** The run waits for an approval (a tool needs one): nothing this command can give. */
  interrupted: 5,
  /** The caller aborted (Ctrl-C). */
  aborted: 130,
} as const;

export function runExitCode(outcome: LoopOutcome): number {
  switch (outcome.type) {
    case 'completed':
      return RUN_EXIT_CODES.completed;
    case 'interrupted':
      return RUN_EXIT_CODES.interrupted;
    case 'stopped':
      return stopExitCode(outcome.reason);
    default: {
      const unreachable: never = outcome;
      throw new TypeError(`unknown outcome ${String(unreachable)}`);
    }
  }
}

function stopExitCode(reason: StopReason): number {
  switch (reason) {
    case 'LOOP_DETECTED':
      return RUN_EXIT_CODES.loop;
    case 'MAX_ROUND_TRIPS':
    case 'BUDGET_EXHAUSTED':
    case 'TOOL_CALL_LIMIT':
    case 'STOP_CONDITION':
      return RUN_EXIT_CODES.limit;
    case 'ABORTED':
      return RUN_EXIT_CODES.aborted;
    case 'MODEL_ERROR':
    case 'TOOL_FATAL':
    case 'CALLBACK_FAILED':
    case 'STORE_UNAVAILABLE':
      return RUN_EXIT_CODES.error;
    default: {
      const unreachable: never = reason;
      throw new TypeError(`unknown stop reason ${String(unreachable)}`);
    }
  }
}
