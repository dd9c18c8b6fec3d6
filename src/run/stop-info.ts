import type { StopEvidence, StopReason } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { WriteDone } from './writes-done.js';

/** What a stop hands to a fallback function or a handoff. */
export interface StopInfo {
  readonly reason: StopReason;
  readonly evidence: StopEvidence;
  readonly messages: readonly Message[];
  /**
   * The tools that may change the world and took effect in this request before the stop, and how often
   * (a replay, a refusal or a failure before acting is none; see `writesDone`).
   */
  readonly writes: readonly WriteDone[];
  /** The tools with a call that may or may not have taken effect (timed out, cut off, failed after it started). */
  readonly outcomeUnknown: readonly string[];
}
