import type { GuardState } from '../core/guard-state.js';
import { type GuardConfig, observeRound, startRequest } from './loop-guard.js';

/**
 * The guard's memory when another request of the same session saved first: the rounds this request added
 * (those numbered from `loaded.nextRound` on) observed again on top of what the store now holds, as one more
 * request. Nothing either request learnt is lost, and neither overwrites the other. `observeRound` is pure,
 * so replaying the records gives the state one process would have reached serving both requests in turn.
 */
export function mergeGuardState(
  stored: GuardState,
  loaded: GuardState,
  ours: GuardState,
  config: GuardConfig,
): GuardState {
  const added = ours.window.filter((round) => round.round >= loaded.nextRound);
  let merged = startRequest(stored);
  for (const round of added) merged = observeRound(merged, round.calls, config).state;
  return { ...merged, nudged: [...new Set([...merged.nudged, ...ours.nudged])] };
}
