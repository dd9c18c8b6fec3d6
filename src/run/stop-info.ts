import type { StopEvidence, StopReason } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { ToolEffect } from '../tools/tool-effect.js';

/** What a stop hands to a fallback function or a handoff. */
export interface StopInfo {
  readonly reason: StopReason;
  readonly evidence: StopEvidence;
  readonly messages: readonly Message[];
  /**
   * The tools that may change the world and took effect in this request before the stop, and how often
   * (a replay, a refusal or a failure before acting is none; see `writesDone`).
   */
  readonly writes: readonly {
    readonly tool: string;
    /**
     * Its executions that took effect: a replay of an earlier call is none, and an idempotent write run
     * again with the arguments of its previous execution changed nothing more.
     */
    readonly times: number;
    /** `write` or `idempotent-write`: it changed something; `unknown`: it ran, and nobody said what it does. */
    readonly effect: Exclude<ToolEffect, 'read'>;
  }[];
  /** The tools with a call that may or may not have taken effect (timed out, cut off, failed after it started). */
  readonly outcomeUnknown: readonly string[];
}
