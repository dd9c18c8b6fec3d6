import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { DEFAULT_REPORT_MAX_LINE_BYTES } from '../core/defaults.js';
import type { AuditLogEntry } from './audit-log-entry.js';

export type { AuditLogEntry };

const SQLITE_HEADER = 'SQLite format 3\u0000';

/** Whether the file is a SQLite database (by its header, whatever its name). */
export async function isSqliteFile(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const header = Buffer.alloc(SQLITE_HEADER.length);
    const { bytesRead } = await file.read(header, 0, header.length, 0);
    return bytesRead === header.length && header.toString('latin1') === SQLITE_HEADER;
  } finally {
    await file.close();
  }
}

/**
 * The entries of an audit log, streamed: a JSONL file line by line (a line longer than
 * `DEFAULT_REPORT_MAX_LINE_BYTES` is passed over without being held), a SQLite database (the
 * `toolwarden_audit` table of `createSqliteAuditSink`) row by row.
 */
export async function* readAuditLog(path: string): AsyncGenerator<AuditLogEntry> {
  if (await isSqliteFile(path)) {
    // The driver is an optional peer: loaded only for a SQLite log.
    const { readSqliteAuditLog } = await import('./read-sqlite-audit-log.js');
    yield* readSqliteAuditLog(path);
    return;
  }
  yield* readJsonlLines(path);
}

/** Lines split on `\n` bytes (never inside a UTF-8 sequence), decoded one at a time; `\r\n` is a line end too. */
async function* readJsonlLines(path: string): AsyncGenerator<AuditLogEntry> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let position = 0;
  const line = (): AuditLogEntry => {
    position++;
    const text = tooLong ? undefined : trimCarriageReturn(Buffer.concat(parts, length).toString('utf8'));
    parts = [];
    length = 0;
    tooLong = false;
    return { position, text };
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      keep(chunk.subarray(start, end));
      yield line();
      start = end + 1;
    }
    keep(chunk.subarray(start));
  }
  if (length > 0 || tooLong) yield line();

  function keep(part: Buffer): void {
    if (tooLong || part.length === 0) return;
    if (length + part.length > DEFAULT_REPORT_MAX_LINE_BYTES) {
      tooLong = true;
      parts = [];
      length = 0;
      return;
    }
    parts.push(part);
    length += part.length;
  }
}

function trimCarriageReturn(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
