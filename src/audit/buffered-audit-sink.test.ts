import { afterEach, describe, expect, it, vi } from 'vitest';
import { runRecord as record } from './__fixtures__/run-record.js';
import { bufferedAuditSink, RECORD_BATCHES } from './buffered-audit-sink.js';

/** The next turn of the event loop: what the first test is about (appends in separate turns share a write). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A sink over a writer that keeps each batch it is given. */
function recordingSink(flushDelayMs: number) {
  const writes: string[][] = [];
  const sink = bufferedAuditSink(
    {
      ...RECORD_BATCHES,
      write: async (batch) => {
        writes.push(batch.map((entry) => entry.runId ?? ''));
      },
      release: async () => {},
    },
    { flushDelayMs },
  );
  return { sink, writes };
}

describe('bufferedAuditSink', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('records appended in separate turns of the event loop share one write', async () => {
    const { sink, writes } = recordingSink(60_000);
    for (const runId of ['r1', 'r2', 'r3']) {
      sink.append(record(runId));
      await nextTurn();
    }
    expect(writes).toEqual([]);
    await sink.flush();
    sink.append(record('r4'));
    await sink.close();
    expect(writes).toEqual([['r1', 'r2', 'r3'], ['r4']]);
  });

  it('writes a batch by itself once its delay has passed', async () => {
    // The delay passes on a fake clock.
    vi.useFakeTimers();
    const { sink, writes } = recordingSink(0);
    sink.append(record('r1'));
    sink.append(record('r2'));
    await vi.advanceTimersByTimeAsync(20);
    expect(writes).toEqual([['r1', 'r2']]);
    await sink.close();
  });
});
