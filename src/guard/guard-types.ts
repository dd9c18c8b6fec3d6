/**
 * One call of one round, as the guard remembers it. Fingerprints are numbers (53-bit digests): compared
 * as numbers every round, turned into text only for evidence.
 */
export interface CallRecord {
  readonly tool: string;
  /** The call's fingerprint: digest of tool + canonical arguments (see `callHash`). */
  readonly call: number;
  /** Digest of the result text the model saw. */
  readonly result: number;
  /** A transient failure (already retried by the chain): counted only by its own, higher repeat limit. */
  readonly transient?: boolean;
}

export interface RoundRecord {
  /** Round number within the conversation (keeps counting across requests of one session). */
  readonly round: number;
  readonly calls: readonly CallRecord[];
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

/**
 * The guard's memory as persisted per session: a bounded window of rounds, versioned (2: numeric
 * fingerprints; any other version restores as a fresh start).
 */
export interface GuardState {
  readonly schemaVersion: 2;
  readonly nextRound: number;
  readonly window: readonly RoundRecord[];
  /** Rounds in a row that brought no (tool, result) pair not seen before in the window. */
  readonly staleRounds: number;
  /** Fingerprints the model was already nudged about. */
  readonly nudged: readonly string[];
}

export const EMPTY_GUARD_STATE: GuardState = Object.freeze({
  schemaVersion: 2,
  nextRound: 1,
  window: Object.freeze([]),
  staleRounds: 0,
  nudged: Object.freeze([]),
});

/** What the detectors return when they find nothing (almost every round): shared, so it costs nothing. */
export const NO_FINDINGS: readonly GuardFinding[] = Object.freeze([]);
