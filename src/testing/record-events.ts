import type { ToolEvent, ToolEventListener } from '../chain/tool-event.js';

/** A listener that keeps every event, for tests: pass `recorder.listener` as `onEvent`. */
export interface EventRecorder {
  readonly events: readonly ToolEvent[];
  readonly listener: ToolEventListener;
  ofType<T extends ToolEvent['type']>(type: T): Array<Extract<ToolEvent, { type: T }>>;
}

export function recordEvents(): EventRecorder {
  const events: ToolEvent[] = [];
  return {
    events,
    listener: (event) => {
      events.push(event);
    },
    ofType: <T extends ToolEvent['type']>(type: T) =>
      events.filter((event): event is Extract<ToolEvent, { type: T }> => event.type === type),
  };
}
