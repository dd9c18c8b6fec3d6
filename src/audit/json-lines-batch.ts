import type { AuditRecord } from './audit-record.js';

/** Lines encoded together: one call into the encoder for them all, and few strings kept meanwhile. */
const LINES_PER_CHUNK = 64;

/**
 * Records as JSON Lines: each is written (`JSON.stringify`) when it is added, and encoded (UTF-8) with the
 * lines before it in chunks of bytes, which live outside the JS heap. A batch waiting for its write thus
 * keeps no record, and few strings, for the garbage collector to copy. `JSON.stringify` escapes line
 * breaks, so each record is one line whatever its strings hold.
 */
export class JsonLinesBatch {
  private lines: string[] = [];
  private readonly chunks: Buffer[] = [];

  add(record: AuditRecord): void {
    this.lines.push(JSON.stringify(record));
    if (this.lines.length === LINES_PER_CHUNK) this.encode();
  }

  /** The lines added so far, each ended by a line break. */
  content(): Buffer {
    this.encode();
    return Buffer.concat(this.chunks);
  }

  private encode(): void {
    if (this.lines.length === 0) return;
    this.lines.push('');
    this.chunks.push(Buffer.from(this.lines.join('\n')));
    this.lines = [];
  }
}
