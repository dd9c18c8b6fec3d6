import type { RunEvent } from '../core/run-event.js';

/**
 * A listener that keeps every event, for tests: pass `recorder.listener` as `onEvent` (of the loop, or of
 * an execution: the chain's tool events are run events too).
 */
export interface EventRecorder {
  /** Every event so far, in order. */
  readonly events: readonly RunEvent[];
  /** Pass it as `onEvent`. */
  readonly listener: (event: RunEvent) => void;
  /** The events of one type, in order. */
  ofType<T extends RunEvent['type']>(type: T): Array<Extract<RunEvent, { type: T }>>;
}

/** A fresh `EventRecorder`. */
export function recordEvents(): EventRecorder {
  const events: RunEvent[] = [];
  return {
    events,
    listener: (event) => {
      events.push(event);
    },
    ofType: <T extends RunEvent['type']>(type: T) =>
      events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type),
  };
}
