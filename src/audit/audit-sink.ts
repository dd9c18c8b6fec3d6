import type { AuditRecord } from './audit-record.js';

/**
 * Where audit records go. `append` never blocks and never throws: it buffers, and a write that fails later
 * is reported (the sink's `onError`), never thrown into the run. `flush` writes what is buffered; `close`
 * flushes and releases the file or connection. Neither rejects.
 */
export interface AuditSink {
  /** Buffers a record; never blocks, never throws. */
  append(record: AuditRecord): void;
  /** Writes what is buffered. */
  flush(): Promise<void>;
  /** Flushes, then releases the file or connection. */
  close(): Promise<void>;
}

/** A failed write of a sink: what it was doing, the error, and how many records were lost. */
export interface AuditSinkFailure {
  /** `append-after-close`: a record came after `close` (no error); `overflow`: the buffer was full (no error). */
  readonly operation: 'write' | 'close' | 'append-after-close' | 'overflow';
  /** What the write or close threw, when it threw. */
  readonly error?: unknown;
  /** Records that will never be written. */
  readonly lostRecords: number;
}

/** Told a sink's failure (`onError`). */
export type AuditErrorListener = (failure: AuditSinkFailure) => void;

/** Calls a caller's error listener; a listener that throws changes nothing. */
export function reportAuditFailure(
  listener: AuditErrorListener | undefined,
  failure: AuditSinkFailure,
): void {
  try {
    listener?.(failure);
  } catch {
    // The audit must never break the run, its own error listener neither.
  }
}
