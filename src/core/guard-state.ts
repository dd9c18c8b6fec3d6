/** Why the guard warns or stops: which fingerprints repeated, how often, at which rounds. */
export interface LoopEvidence {
  /** The detector that found the loop. */
  readonly detector:
    | 'exact-repeat'
    | 'same-result'
    | 'cycle'
    | 'no-progress'
    | 'still-unavailable'
    | 'unchanged-poll';
  readonly toolNames: readonly string[];
  /** The calls behind the finding: what was asked and seen, how each ended, whether its tool may change the world. */
  readonly fingerprints: readonly {
    /** The call as `callFingerprint` writes it: `tool#digest` of the canonical arguments. */
    readonly call: string;
    /** The digest of the result as the model saw it (see `resultFingerprint`). */
    readonly result: string;
    /** How the call ended: a result, a failure the model can act on, a transient failure, a denial. */
    readonly outcome: 'ok' | 'error' | 'transient' | 'denied';
    /** Its tool may change the world (a write of either kind, or a tool of unknown effect). */
    readonly write: boolean;
  }[];
  readonly occurrences: number;
  readonly rounds: readonly number[];
  /** For `cycle`: the period in rounds. */
  readonly period?: number;
}

/** One of the loop guard's detectors, by name. */
export type LoopDetector = LoopEvidence['detector'];

/** One call of the evidence: its fingerprints, and the facts about it that decide what to advise. */
export type LoopFingerprint = LoopEvidence['fingerprints'][number];

export interface GuardFinding {
  readonly level: 'warn' | 'stop';
  readonly evidence: LoopEvidence;
  /** The call of the current round the finding is about (for the note), when there is one. */
  readonly callIndex?: number;
}

/**
 * The guard's memory, as it works and as it is persisted per session: a bounded window of rounds,
 * versioned (4; a valid version 2 or 3 state is upgraded: its calls read as they were, with no novelty
 * recorded). The guard works on this shape directly: there is no second representation.
 */
export interface GuardState {
  readonly schemaVersion: 4;
  readonly nextRound: number;
  /** The current request of the session (0 before the first). */
  readonly request: number;
  /** What the guard keeps of each round of the window: its calls' fingerprints and outcomes. */
  readonly window: readonly {
    /** Round number within the conversation (keeps counting across requests of one session). */
    readonly round: number;
    /** The request of the session the round belongs to (each `runToolLoop` call starts one). */
    readonly request: number;
    /**
     * The round's calls. Fingerprints are 53-bit digests (`fingerprint.ts`): numbers in the state, text in
     * evidence. A record holds facts about the call, not conclusions: the detectors read the tool's loop
     * hints when they run.
     */
    readonly calls: readonly {
      readonly tool: string;
      /** Digest of the tool name and the arguments as the model sent them, in canonical form. */
      readonly call: number;
      /**
       * A write's digest with generated-looking ids left out (a fresh client id makes no new write);
       * absent when it is `call` (every read).
       */
      readonly shape?: number;
      /**
       * The arguments with prose left out, and a read's volatile-looking values (a reworded reason or
       * query is the same move; two calls with one gist are near each other); absent when it is the shape.
       */
      readonly gist?: number;
      /**
       * A read's arguments with whole integers left out, and their sum: two reads with one frame and sums
       * one apart step through pages. Only for content-bearing answers (what the same-result detector reads).
       */
      readonly pace?: readonly [frame: number, sum: number];
      /** Digest of the result as the model saw it (ignored fields and volatile-looking values left out). */
      readonly result: number;
      /** The result with its numbers left out, and their sum: how a counter that counts the calls is told apart. */
      readonly frame?: number;
      readonly sum?: number;
      /** Digests of the handles the result offers a next call (ids, cursors, leases; at most 16). */
      readonly offers?: readonly number[];
      /**
       * `ok` a result; `error` a failure the model can act on; `transient` a failure after the chain's
       * retries; `denied` a call refused as not permitted.
       */
      readonly outcome: 'ok' | 'error' | 'transient' | 'denied';
      /** The tool is a write tool. */
      readonly write?: true;
      /** The call passes on a handle the previous round, or its tool's last answer, offered: it follows an answer. */
      readonly chained?: true;
      /** The result carries content (long enough to be more than a verdict, an ack or an empty answer). */
      readonly content?: true;
      /**
       * The call told the model something it had not seen: a result unlike the last one of the same call,
       * or content no call of its tool had given in the window.
       */
      readonly novel?: true;
    }[];
  }[];
  /** Notes the model was already given (one per detector and fingerprints), the newest last. */
  readonly nudged: readonly string[];
}

/** What the loop guard keeps of one round: its calls' fingerprints and outcomes. */
export type RoundRecord = GuardState['window'][number];

/** One call of one round, as the guard remembers it. */
export type CallRecord = RoundRecord['calls'][number];

/** How a call ended, for the guard: a result, a failure the model can act on, a transient failure after the chain's retries, a denial. */
export type CallOutcome = CallRecord['outcome'];

export const EMPTY_GUARD_STATE: GuardState = Object.freeze({
  schemaVersion: 4,
  nextRound: 1,
  request: 0,
  window: Object.freeze([]),
  nudged: Object.freeze([]),
});

/** The call as the detectors compare it: a write's shape, a read's exact call. */
export function shapeOf(record: CallRecord): number {
  return record.shape ?? record.call;
}

/** The call with its wording left out, as the cycle detector compares it. */
export function gistOf(record: CallRecord): number {
  return record.gist ?? record.shape ?? record.call;
}
