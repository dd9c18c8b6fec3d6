import type { LoopHints } from '../tools/loop-hints.js';

/** The loop guard's settings: its thresholds, the detectors it runs, and what it does on a loop. */
export interface GuardOptions {
  /** Occurrences of the same call with the same result that stop (default 3: the 2nd repeat). */
  readonly repeatLimit?: number;
  /** Different arguments to one tool with the same content-bearing result that stop (default 3). */
  readonly sameResultLimit?: number;
  /** Longest cycle period looked for, in rounds (default 4; 0 turns cycle detection off). */
  readonly maxCyclePeriod?: number;
  /** Rounds in a row that only repeat what the request already saw, that stop (default 4). */
  readonly noProgressRounds?: number;
  /** Occurrences of the same call failing transiently that stop (default 5; no warning before). */
  readonly transientRepeatLimit?: number;
  /** Tell the model once, on the repeat before a stop, what it is repeating, in a note beside the result (default true). */
  readonly nudge?: boolean;
  /** Loop hints per tool name, over the tools' own (`defineTool({ loop })`), field by field. */
  readonly hints?: Readonly<Record<string, LoopHints>>;
}
