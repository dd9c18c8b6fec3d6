import { DEFAULT_GUARD_WINDOW_ROUNDS, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../defaults.js';
import { detectLoops, type LoopThresholds } from './detect-loops.js';
import { createHashState, type HashState } from './fingerprinter.js';
import { type CallRecord, EMPTY_GUARD_STATE, type GuardFinding, type GuardState } from './guard-types.js';

// The guard is plain data (object literals) worked on by module functions, not a class and not closures:
// it lives for one request, and V8 throws away optimized code in a full GC once no instance of a class
// (its map) or no closure (its code) is left, i.e. between requests. The code then ran unoptimized, and
// allocated ten times more per round. A literal's map lives with its boilerplate, a module function as
// long as the module.

/** A call record the guard rewrites in place when its round slot comes round again. */
interface CallSlot {
  tool: string;
  call: number;
  result: number;
  transient: boolean;
}

/** A round of the window; while it is recorded, `calls` may still hold slots of the round it was before. */
interface RoundSlot {
  round: number;
  calls: CallSlot[];
}

/**
 * The semantic guard's memory for one run of the loop: a window of the last `DEFAULT_GUARD_WINDOW_ROUNDS`
 * rounds of at most `DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND` calls each, so memory is bounded however
 * long a request runs. Mutable, because it runs every round: once the window is full its slots are
 * reused, and a round that finds nothing allocates nothing. The detectors stay pure functions over the
 * window. Use it through the functions of this module; `snapshotGuard` gives the persisted `GuardState`.
 */
export interface LoopGuard {
  readonly thresholds: LoopThresholds;
  /** Hash state for the round's call fingerprints (`callHash`). */
  readonly hashState: HashState;
  /** Oldest first; the round just finished last. */
  readonly window: RoundSlot[];
  /** The round being recorded; it joins the window in `finishRound`. */
  pending: RoundSlot;
  recorded: number;
  nextRound: number;
  staleRounds: number;
  /** Fingerprints the model was already nudged about, the newest last. */
  readonly nudged: string[];
}

export function createLoopGuard(
  thresholds: LoopThresholds,
  state: GuardState = EMPTY_GUARD_STATE,
): LoopGuard {
  const guard: LoopGuard = {
    thresholds,
    hashState: createHashState(),
    window: [],
    pending: newRoundSlot(),
    recorded: 0,
    nextRound: state.nextRound,
    staleRounds: state.staleRounds,
    nudged: state.nudged.slice(-DEFAULT_GUARD_WINDOW_ROUNDS),
  };
  for (const round of state.window.slice(-DEFAULT_GUARD_WINDOW_ROUNDS)) {
    const slot = newRoundSlot();
    slot.round = round.round;
    for (const call of round.calls.slice(0, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND))
      fill(slot, slot.calls.length, call.tool, call.call, call.result, call.transient === true);
    guard.window.push(slot);
  }
  return guard;
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
  fill(guard.pending, guard.recorded++, tool, call, result, transient);
}

/** Closes the round being recorded, slides the window, and runs the detectors over it. */
export function finishRound(guard: LoopGuard): readonly GuardFinding[] {
  const round = guard.pending;
  // Slots left from the round this one was before are dropped (a round of the same size keeps them all).
  if (round.calls.length > guard.recorded) round.calls.length = guard.recorded;
  guard.recorded = 0;
  round.round = guard.nextRound++;
  // Transient failures neither show progress nor its absence. Novelty is judged against the window
  // before it slides, the round about to leave it included.
  let judged = 0;
  let novel = false;
  for (let c = 0; c < round.calls.length; c++) {
    const call = round.calls[c] as CallSlot;
    if (call.transient) continue;
    judged++;
    if (!novel && !seen(guard.window, call)) novel = true;
  }
  if (judged > 0) guard.staleRounds = novel ? 0 : guard.staleRounds + 1;
  else if (round.calls.length === 0) guard.staleRounds = 0;

  const window = guard.window;
  if (window.length >= DEFAULT_GUARD_WINDOW_ROUNDS) {
    // Shifted by hand: no allocation, and 32 moves cost less than ring-index arithmetic in every scan.
    guard.pending = window[0] as RoundSlot;
    for (let i = 1; i < window.length; i++) window[i - 1] = window[i] as RoundSlot;
    window[window.length - 1] = round;
  } else {
    window.push(round);
    guard.pending = newRoundSlot();
  }
  return detectLoops(window, guard.staleRounds, guard.thresholds);
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

/** The state to persist: plain data, a copy (the guard goes on reusing its slots). */
export function snapshotGuard(guard: LoopGuard): GuardState {
  return {
    schemaVersion: 2,
    nextRound: guard.nextRound,
    window: guard.window.map((round) => ({
      round: round.round,
      calls: round.calls.map(({ tool, call, result, transient }) =>
        transient ? { tool, call, result, transient: true } : { tool, call, result },
      ),
    })),
    staleRounds: guard.staleRounds,
    nudged: [...guard.nudged],
  };
}

/**
 * Whether this (tool, result) pair came out of any round in the window. A scan, no index to allocate;
 * indexed loops, since for-of allocates per step wherever the code is not optimized.
 */
function seen(window: readonly RoundSlot[], call: CallSlot): boolean {
  for (let r = 0; r < window.length; r++) {
    const { calls } = window[r] as RoundSlot;
    for (let c = 0; c < calls.length; c++) {
      const other = calls[c] as CallSlot;
      if (other.result === call.result && other.tool === call.tool) return true;
    }
  }
  return false;
}

function newRoundSlot(): RoundSlot {
  return { round: 0, calls: [] };
}

/** Writes call `index` of a round: into the slot there, or a new one at the end. */
function fill(
  round: RoundSlot,
  index: number,
  tool: string,
  call: number,
  result: number,
  transient: boolean,
): void {
  const slot = round.calls[index];
  if (slot === undefined) {
    // A first call gets an array of its own size (pushing to an empty one reserves room for 16).
    if (index === 0) round.calls = [{ tool, call, result, transient }];
    else round.calls.push({ tool, call, result, transient });
    return;
  }
  slot.tool = tool;
  slot.call = call;
  slot.result = result;
  slot.transient = transient;
}
