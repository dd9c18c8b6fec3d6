import { DEFAULT_GUARD_WINDOW_ROUNDS, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../defaults.js';
import { createHashState, type HashState } from './call-hash.js';
import { detectLoops, type LoopThresholds } from './detect-loops.js';
import { type CallRecord, EMPTY_GUARD_STATE, type GuardFinding, type GuardState } from './guard-types.js';
import {
  appendCall,
  closeRound,
  dropOldestRound,
  type GuardWindow,
  roundCount,
  windowOf,
  windowRounds,
} from './guard-window.js';

// The guard is plain data (object literals and arrays) worked on by module functions, not a class and not
// closures. Measured on Node 20 (--trace-deopt on the loop benchmark): a first, class-based guard lost its
// optimized code in full GCs between requests, when no instance (or closure) was left, then ran
// unoptimized and allocated ten times more per round. A literal's map lives with its boilerplate, a
// module function as long as the module, and this shape did not show it.

/**
 * The semantic guard's memory for one run of the loop: a window of the last `DEFAULT_GUARD_WINDOW_ROUNDS`
 * rounds of at most `DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND` calls each, so memory is bounded however
 * long a request runs. Mutable, because it runs every round: a round is appended to the window's
 * columns in place, and a round that finds nothing allocates nothing. The detectors stay pure functions
 * over the window. Use it through the functions of this module; `snapshotGuard` gives the persisted
 * `GuardState`.
 */
export interface LoopGuard {
  readonly thresholds: LoopThresholds;
  /** Hash state for the round's call fingerprints (`callHash`). */
  readonly hashState: HashState;
  /** The rounds so far, and after them the entries of the round being recorded. */
  readonly window: GuardWindow;
  /** Entries of the round being recorded (at the end of the window's columns). */
  recorded: number;
  nextRound: number;
  staleRounds: number;
  /** Fingerprints the model was already nudged about, the newest last. */
  readonly nudged: string[];
  /** `detectLoops`' scratch array, empty between rounds. */
  readonly findings: GuardFinding[];
}

export function createLoopGuard(
  thresholds: LoopThresholds,
  state: GuardState = EMPTY_GUARD_STATE,
): LoopGuard {
  const rounds = state.window.slice(-DEFAULT_GUARD_WINDOW_ROUNDS).map((round) => ({
    round: round.round,
    calls: round.calls.slice(0, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND),
  }));
  return {
    thresholds,
    hashState: createHashState(),
    window: windowOf(rounds),
    recorded: 0,
    nextRound: state.nextRound,
    staleRounds: state.staleRounds,
    nudged: state.nudged.slice(-DEFAULT_GUARD_WINDOW_ROUNDS),
    findings: [],
  };
}

/** Adds a call (its fingerprints) to the round being recorded; calls beyond the per-round cap are not kept. */
export function recordCall(
  guard: LoopGuard,
  tool: string,
  call: number,
  result: number,
  transient: boolean,
): void {
  if (guard.recorded >= DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND) return;
  appendCall(guard.window, tool, call, result, transient);
  guard.recorded++;
}

/** Closes the round being recorded, slides the window, and runs the detectors over it. */
export function finishRound(guard: LoopGuard): readonly GuardFinding[] {
  const { window } = guard;
  const size = guard.recorded;
  guard.recorded = 0;
  // Transient failures neither show progress nor its absence. Novelty is judged against the window
  // before it slides, the round about to leave it included.
  const end = window.calls.length;
  let judged = 0;
  let novel = false;
  for (let index = end - size; index < end; index++) {
    if (window.transient[index] === true) continue;
    judged++;
    if (!novel && !seen(window, end - size, index)) novel = true;
  }
  if (judged > 0) guard.staleRounds = novel ? 0 : guard.staleRounds + 1;
  else if (size === 0) guard.staleRounds = 0;

  closeRound(window, guard.nextRound++, size);
  if (roundCount(window) > DEFAULT_GUARD_WINDOW_ROUNDS) dropOldestRound(window);
  return detectLoops(window, guard.staleRounds, guard.thresholds, guard.findings);
}

/** `recordCall` for each of `calls`, then `finishRound`. */
export function observeRound(guard: LoopGuard, calls: readonly CallRecord[]): readonly GuardFinding[] {
  for (const call of calls) recordCall(guard, call.tool, call.call, call.result, call.transient === true);
  return finishRound(guard);
}

export function wasNudged(guard: LoopGuard, key: string): boolean {
  return guard.nudged.includes(key);
}

export function markNudged(guard: LoopGuard, key: string): void {
  guard.nudged.push(key);
  if (guard.nudged.length > DEFAULT_GUARD_WINDOW_ROUNDS) guard.nudged.shift();
}

/** The state to persist: plain data, a copy. */
export function snapshotGuard(guard: LoopGuard): GuardState {
  return {
    schemaVersion: 2,
    nextRound: guard.nextRound,
    window: windowRounds(guard.window),
    staleRounds: guard.staleRounds,
    nudged: [...guard.nudged],
  };
}

/** Whether entry `index`'s (tool, result) pair is among the live entries before `end`: a scan, no index kept. */
function seen(window: GuardWindow, end: number, index: number): boolean {
  const { tools, results } = window;
  const tool = tools[index];
  const result = results[index];
  for (let j = window.firstEntry; j < end; j++) if (results[j] === result && tools[j] === tool) return true;
  return false;
}
