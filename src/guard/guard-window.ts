import type { CallRecord, RoundRecord } from './guard-types.js';

/**
 * The guard's window in columns: one entry per remembered call, oldest first, and per round its number
 * and how many of those entries are its calls (the current round last). The detectors scan it every
 * round; contiguous numbers (V8 keeps a number array unboxed) scan several times faster than a graph of
 * round and call objects, each fingerprint boxed, and appending a round allocates nothing once the
 * arrays have grown to the window's size.
 *
 * Dropped rounds stay in the arrays, before `first`/`firstEntry`, until there are as many of them as
 * live rounds: then all are removed at once (moving every entry each round cost more than the scans).
 * So the arrays hold at most twice the live window.
 */
export interface GuardWindow {
  /** Index of the oldest live round in `roundNumbers`/`roundSizes`. */
  first: number;
  /** Index of its first entry in the call columns. */
  firstEntry: number;
  readonly tools: string[];
  /** Call fingerprints (`callHash`). */
  readonly calls: number[];
  /** Result fingerprints (`hash53` of the text the model saw). */
  readonly results: number[];
  /** A transient failure (already retried by the chain): counted only by its own, higher repeat limit. */
  readonly transient: boolean[];
  readonly roundNumbers: number[];
  readonly roundSizes: number[];
}

export function createGuardWindow(): GuardWindow {
  return {
    first: 0,
    firstEntry: 0,
    tools: [],
    calls: [],
    results: [],
    transient: [],
    roundNumbers: [],
    roundSizes: [],
  };
}

/** Appends a call entry; `closeRound` then counts the entries appended since the last round as one round. */
export function appendCall(
  window: GuardWindow,
  tool: string,
  call: number,
  result: number,
  transient: boolean,
): void {
  window.tools.push(tool);
  window.calls.push(call);
  window.results.push(result);
  window.transient.push(transient);
}

export function closeRound(window: GuardWindow, round: number, size: number): void {
  window.roundNumbers.push(round);
  window.roundSizes.push(size);
}

/** Live rounds in the window. */
export function roundCount(window: GuardWindow): number {
  return window.roundSizes.length - window.first;
}

/** Drops the oldest live round (see `GuardWindow` on when its entries leave the arrays). */
export function dropOldestRound(window: GuardWindow): void {
  const size = window.roundSizes[window.first];
  if (size === undefined) return;
  window.first++;
  window.firstEntry += size;
  if (window.first >= roundCount(window)) compact(window);
}

function compact(window: GuardWindow): void {
  shift(window.roundNumbers, window.first);
  shift(window.roundSizes, window.first);
  shift(window.tools, window.firstEntry);
  shift(window.calls, window.firstEntry);
  shift(window.results, window.firstEntry);
  shift(window.transient, window.firstEntry);
  window.first = 0;
  window.firstEntry = 0;
}

/**
 * By hand: `copyWithin` takes V8's generic (slow) path, `splice` allocates the removed part, and a
 * `length` store is a runtime call where `pop` is inlined.
 */
function shift<T>(items: T[], count: number): void {
  const length = items.length - count;
  for (let i = 0; i < length; i++) items[i] = items[i + count] as T;
  for (let i = 0; i < count; i++) items.pop();
}

/** Index of the first entry of round `index` (counted from the end: the current round is cheapest). */
export function roundStart(window: GuardWindow, index: number): number {
  let start = window.calls.length;
  for (let r = window.roundSizes.length - 1; r >= index; r--) start -= window.roundSizes[r] as number;
  return start;
}

/** Entry `index` as a record (for evidence and persistence: never in the every-round scans). */
export function entryAt(window: GuardWindow, index: number): CallRecord {
  const tool = window.tools[index] as string;
  const call = window.calls[index] as number;
  const result = window.results[index] as number;
  return window.transient[index] === true ? { tool, call, result, transient: true } : { tool, call, result };
}

/** The live window as rounds of records (what `GuardState` persists). */
export function windowRounds(window: GuardWindow): RoundRecord[] {
  const rounds: RoundRecord[] = [];
  let start = window.firstEntry;
  for (let r = window.first; r < window.roundSizes.length; r++) {
    const size = window.roundSizes[r] as number;
    const calls: CallRecord[] = [];
    for (let i = start; i < start + size; i++) calls.push(entryAt(window, i));
    rounds.push({ round: window.roundNumbers[r] as number, calls });
    start += size;
  }
  return rounds;
}

/** A window holding `rounds` (a restored state, or a test's). */
export function windowOf(rounds: readonly RoundRecord[]): GuardWindow {
  const window = createGuardWindow();
  for (const round of rounds) {
    for (const call of round.calls)
      appendCall(window, call.tool, call.call, call.result, call.transient === true);
    closeRound(window, round.round, round.calls.length);
  }
  return window;
}
