/** One call of one round, as the guard remembers it. */
export interface CallRecord {
  readonly tool: string;
  /** `callFingerprint`: tool + canonical arguments. */
  readonly call: string;
  /** `resultFingerprint` of what the model saw. */
  readonly result: string;
  /** A transient failure (already retried by the chain): counted only by its own, higher repeat limit. */
  readonly transient?: true;
}

export interface RoundRecord {
  /** Round number within the conversation (keeps counting across requests of one session). */
  readonly round: number;
  readonly calls: readonly CallRecord[];
  /** The round as one string (every call and result), computed once: what cycle detection compares. */
  readonly signature: string;
}

/** The signature of a round's calls. */
export function roundSignature(calls: readonly CallRecord[]): string {
  let signature = '';
  for (const call of calls)
    signature += signature === '' ? `${call.call}>${call.result}` : `|${call.call}>${call.result}`;
  return signature;
}

export type LoopDetector = 'exact-repeat' | 'same-result' | 'cycle' | 'no-progress' | 'still-unavailable';

/** Why the guard warns or stops: which fingerprints repeated, how often, at which rounds. */
export interface LoopEvidence {
  readonly detector: LoopDetector;
  readonly toolNames: readonly string[];
  readonly fingerprints: readonly { readonly call: string; readonly result: string }[];
  readonly occurrences: number;
  readonly rounds: readonly number[];
  /** For `cycle`: the period in rounds. */
  readonly period?: number;
}

export interface GuardFinding {
  readonly level: 'warn' | 'stop';
  readonly evidence: LoopEvidence;
  /** The call of the current round the finding is about (for the nudge), when there is one. */
  readonly callIndex?: number;
}

/** The guard's memory: a bounded window of rounds, versioned because it is persisted per session. */
export interface GuardState {
  readonly schemaVersion: 1;
  readonly nextRound: number;
  readonly window: readonly RoundRecord[];
  /** Rounds in a row that brought no (tool, result) pair not seen before in the window. */
  readonly staleRounds: number;
  /** Fingerprints the model was already nudged about. */
  readonly nudged: readonly string[];
}

export const EMPTY_GUARD_STATE: GuardState = Object.freeze({
  schemaVersion: 1,
  nextRound: 1,
  window: [],
  staleRounds: 0,
  nudged: [],
});
