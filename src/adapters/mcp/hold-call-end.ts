import type { ToolEvent, ToolEventListener } from '../../core/tool-event.js';
import type { ToolErrorCode } from '../../core/tool-execution-result.js';
import type { ScreenNote } from './proxy/proxy-screen.js';

/** A listener whose call-end event waits until the loop guard has judged the call's result. */
export interface HeldCallEnd {
  readonly listener: ToolEventListener | undefined;
  /**
   * Passes the held end on; `answered`: the client was answered with this code instead of the result
   * (`LOOP_DETECTED`, or `SECRET_DETECTED` for a result withheld for a secret).
   */
  release(answered?: 'LOOP_DETECTED' | 'SECRET_DETECTED'): void;
  /** What the screen found of the call so far, read when its record is made (the result's scan adds to it). */
  readonly screened: ScreenNotes;
}

/** The screen's note of one call, added to as the call goes (its arguments, then its result). */
export interface ScreenNotes {
  note: ScreenNote;
}

/**
 * The audit's listener for one proxied call, its `tool-call-end` held back: a call that ran again after
 * its loop was stopped and gave the same result is answered `LOOP_DETECTED` after it ran, so its record
 * (the run's, `outcome: "success"`) gets `code: "LOOP_DETECTED"`, which the report counts as a loop
 * refusal. Every other event passes at once.
 */
export function holdCallEnd(
  listener: ToolEventListener | undefined,
  screened: ScreenNotes = { note: {} },
): HeldCallEnd {
  if (listener === undefined) return { listener, release: () => {}, screened };
  let held: Extract<ToolEvent, { type: 'tool-call-end' }> | undefined;
  let released = false;
  // An end that comes after the release (a call the chain ended late) passes at once.
  const holding = (event: ToolEvent) => {
    if (event.type === 'tool-call-end' && !released) held = event;
    else listener(event);
  };
  return {
    listener: holding,
    screened,
    release(answered) {
      released = true;
      const end = held;
      held = undefined;
      if (end === undefined) return;
      // The record's code takes the proxy's (`AuditCallRecord.code`); the chain's own codes do not.
      listener(answered === undefined ? end : { ...end, code: answered as ToolErrorCode });
    },
  };
}
