import { appendFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { AuditRecord } from './audit-record.js';
import type { AuditSink } from './audit-sink.js';
import { type BufferedAuditSinkOptions, bufferedAuditSink } from './buffered-audit-sink.js';

export interface JsonlAuditSinkOptions extends BufferedAuditSinkOptions {
  /** The file records are appended to, one JSON object per line; created when absent. */
  readonly path: string;
}

/**
 * An audit sink appending JSON Lines to a file. The file is opened on the first write (a folder that does
 * not exist, or a full disk, is a reported write failure, and the next batch tries again). `JSON.stringify`
 * escapes line breaks, so each record is one line whatever its strings hold.
 */
export function createJsonlAuditSink(options: JsonlAuditSinkOptions): AuditSink {
  const { path } = options;
  let handle: FileHandle | undefined;
  return bufferedAuditSink(
    {
      async write(records) {
        handle ??= await open(path, 'a');
        await handle.appendFile(lines(records));
      },
      async release() {
        const opened = handle;
        handle = undefined;
        await opened?.close();
      },
      writeSync(records) {
        appendFileSync(path, lines(records));
      },
    },
    options,
  );
}

function lines(records: readonly AuditRecord[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}
