import { DEFAULT_AUDIT_FLUSH_DELAY_MS, DEFAULT_AUDIT_MAX_BUFFERED_RECORDS } from '../core/defaults.js';
import type { AuditRecord } from './audit-record.js';
import { type AuditSink, type AuditSinkFailure, reportAuditFailure } from './audit-sink.js';

/**
 * What a concrete sink does with its records; the buffering, ordering and error reporting are shared. The
 * records waiting for a write are kept in the writer's own form, a `Batch`: the records themselves (an
 * array), or their encoding (the JSONL sink's bytes, which keep no record alive meanwhile).
 */
export interface AuditWriter<Batch = AuditRecord[]> {
  /** A new, empty batch. */
  batch(): Batch;
  /** Adds an appended record to the batch; a throw loses the record (reported), never the run. */
  add(batch: Batch, record: AuditRecord): void;
  /** Writes a batch in order; a rejection loses the batch (reported), the next batch is tried again. */
  write(batch: Batch): Promise<void>;
  /** Releases the file or connection, after the last write. */
  release(): Promise<void>;
  /** Writes a batch synchronously, at process exit (nothing async runs then). */
  writeSync?(batch: Batch): void;
}

/** Batches that keep the records as they are, in order. */
export const RECORD_BATCHES: Pick<AuditWriter<AuditRecord[]>, 'batch' | 'add'> = {
  batch: () => [],
  add: (batch, record) => {
    batch.push(record);
  },
};

/** How a buffered sink reports failures and how much it buffers (every sink's options extend these). */
export interface BufferedAuditSinkOptions {
  /** Told each failed write and each lost record; never thrown into the run. */
  readonly onError?: (failure: AuditSinkFailure) => void;
  /** Records waiting for a write at most; a record appended beyond it is lost (reported as `overflow`). */
  readonly maxBufferedRecords?: number;
  /** How long a batch waits, from its first record, before it is written (default 100 ms). */
  readonly flushDelayMs?: number;
}

/**
 * A sink that buffers appends and writes them in batches, one batch at a time, in order: `append` only
 * adds to the batch and schedules its write (`flushDelayMs` later), so a call never waits for the disk and
 * records that come one per turn of the event loop share a write. At process exit, what is still buffered
 * is written synchronously when the writer can (`writeSync`). No failure is thrown or rejected: each is
 * given to `onError`.
 */
export function bufferedAuditSink<Batch>(
  writer: AuditWriter<Batch>,
  options: BufferedAuditSinkOptions = {},
): AuditSink {
  const max = options.maxBufferedRecords ?? DEFAULT_AUDIT_MAX_BUFFERED_RECORDS;
  const delay = options.flushDelayMs ?? DEFAULT_AUDIT_FLUSH_DELAY_MS;
  let buffer = writer.batch();
  /** Records in `buffer`. */
  let count = 0;
  let writing: Promise<void> = Promise.resolve();
  /** The scheduled write of the buffered batch. */
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  const report = (failure: AuditSinkFailure) => reportAuditFailure(options.onError, failure);
  /** The buffered batch and its count, the buffer emptied. */
  const take = () => {
    const taken = { batch: buffer, count };
    buffer = writer.batch();
    count = 0;
    return taken;
  };

  const writeBatch = async (): Promise<void> => {
    if (count === 0) return;
    const { batch, count: records } = take();
    try {
      await writer.write(batch);
    } catch (error) {
      report({ operation: 'write', error, lostRecords: records });
    }
  };
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    writing = writing.then(writeBatch);
    return writing;
  };
  const onExit = (): void => {
    if (count === 0 || writer.writeSync === undefined) return;
    const { batch, count: records } = take();
    try {
      writer.writeSync(batch);
    } catch (error) {
      report({ operation: 'write', error, lostRecords: records });
    }
  };
  process.on('exit', onExit);

  return {
    append(record) {
      if (closed) {
        report({ operation: 'append-after-close', lostRecords: 1 });
        return;
      }
      if (count >= max) {
        report({ operation: 'overflow', lostRecords: 1 });
        return;
      }
      try {
        writer.add(buffer, record);
      } catch (error) {
        report({ operation: 'write', error, lostRecords: 1 });
        return;
      }
      count++;
      timer ??= setTimeout(flush, delay);
    },
    flush,
    close() {
      closed = true;
      closing ??= (async () => {
        await flush();
        process.off('exit', onExit);
        try {
          await writer.release();
        } catch (error) {
          report({ operation: 'close', error, lostRecords: 0 });
        }
      })();
      return closing;
    },
  };
}
