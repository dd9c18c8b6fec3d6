import { DEFAULT_AUDIT_MAX_BUFFERED_RECORDS } from '../defaults.js';
import type { AuditRecord } from './audit-record.js';
import { type AuditErrorListener, type AuditSink, reportAuditFailure } from './audit-sink.js';

/** What a concrete sink does with a batch; the buffering, ordering and error reporting are shared. */
export interface AuditWriter {
  /** Writes a batch in order; a rejection loses the batch (reported), the next batch is tried again. */
  write(records: readonly AuditRecord[]): Promise<void>;
  /** Releases the file or connection, after the last write. */
  release(): Promise<void>;
  /** Writes a batch synchronously, at process exit (nothing async runs then). */
  writeSync?(records: readonly AuditRecord[]): void;
}

export interface BufferedAuditSinkOptions {
  readonly onError?: AuditErrorListener;
  readonly maxBufferedRecords?: number;
}

/**
 * A sink that buffers appends and writes them in batches, one batch at a time, in order: `append` only
 * pushes onto the buffer and schedules a write for after the current callbacks (`setImmediate`), so a
 * call never waits for the disk. At process exit, what is still buffered is written synchronously when
 * the writer can (`writeSync`). No failure is thrown or rejected: each is given to `onError`.
 */
export function bufferedAuditSink(writer: AuditWriter, options: BufferedAuditSinkOptions = {}): AuditSink {
  const max = options.maxBufferedRecords ?? DEFAULT_AUDIT_MAX_BUFFERED_RECORDS;
  let buffer: AuditRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;
  let closed = false;
  let closing: Promise<void> | undefined;
  const report = (failure: Parameters<AuditErrorListener>[0]) => reportAuditFailure(options.onError, failure);

  const writeBatch = async (): Promise<void> => {
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    try {
      await writer.write(batch);
    } catch (error) {
      report({ operation: 'write', error, lostRecords: batch.length });
    }
  };
  const flush = (): Promise<void> => {
    writing = writing.then(writeBatch);
    return writing;
  };
  const onExit = (): void => {
    if (buffer.length === 0 || writer.writeSync === undefined) return;
    const batch = buffer;
    buffer = [];
    try {
      writer.writeSync(batch);
    } catch (error) {
      report({ operation: 'write', error, lostRecords: batch.length });
    }
  };
  process.on('exit', onExit);

  return {
    append(record) {
      if (closed) {
        report({ operation: 'append-after-close', lostRecords: 1 });
        return;
      }
      buffer.push(record);
      if (buffer.length > max) {
        buffer.shift();
        report({ operation: 'overflow', lostRecords: 1 });
      }
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        void flush();
      });
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
