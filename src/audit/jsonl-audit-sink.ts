import { appendFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { AuditSink } from './audit-sink.js';
import { type BufferedAuditSinkOptions, bufferedAuditSink } from './buffered-audit-sink.js';
import { JsonLinesBatch } from './json-lines-batch.js';

/** Where `createJsonlAuditSink` writes, and the buffering it shares with every sink. */
export interface JsonlAuditSinkOptions extends BufferedAuditSinkOptions {
  /** The file records are appended to, one JSON object per line; created when absent. */
  readonly path: string;
}

/**
 * An audit sink appending JSON Lines to a file. A record is encoded when it is appended (`JsonLinesBatch`)
 * and its batch written later in one append. The file is opened on the first write (a folder that does
 * not exist, or a full disk, is a reported write failure, and the next batch tries again).
 */
export function createJsonlAuditSink(options: JsonlAuditSinkOptions): AuditSink {
  const { path } = options;
  let handle: FileHandle | undefined;
  return bufferedAuditSink(
    {
      batch: () => new JsonLinesBatch(),
      add: (batch, record) => batch.add(record),
      async write(batch) {
        handle ??= await open(path, 'a');
        await handle.appendFile(batch.content());
      },
      async release() {
        const opened = handle;
        handle = undefined;
        await opened?.close();
      },
      writeSync(batch) {
        appendFileSync(path, batch.content());
      },
    },
    options,
  );
}
