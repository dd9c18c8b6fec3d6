import type { CallRecord } from '../core/guard-state.js';

/**
 * A write sent with a fresh id of its own (its shape left one out) that follows no answer, and got a
 * short answer saying it was done (an acknowledgement, a new id): another such answer to the same write is
 * the same action again, not news. Without a fresh id, a write's answers are compared as they are (a
 * queue's counts, a test run's output).
 */
export function isReceipt(record: CallRecord): boolean {
  return (
    record.write === true &&
    record.shape !== undefined &&
    record.outcome === 'ok' &&
    record.content !== true &&
    record.chained !== true
  );
}
