import { StoreError } from '../../core/errors/store-error.js';

/**
 * A failure of the SQLite driver as the store port reports it: `StoreError` (`unavailable`), with the
 * driver's error as its cause and its code in the message. SQLITE_BUSY after the busy timeout,
 * SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_FULL, a file that is not a database, a missing folder and a closed
 * connection all land here. A `StoreError` raised inside a store call (a corrupt value) passes as it is.
 */
export function sqliteFailure(operation: string, error: unknown): StoreError {
  if (StoreError.isInstance(error)) return error;
  const { code, message } = (error instanceof Error ? error : {}) as { code?: unknown; message?: string };
  const text = message ?? 'the SQLite driver failed';
  return new StoreError({
    reason: 'unavailable',
    operation,
    message: typeof code === 'string' ? `${code}: ${text}` : text,
    cause: error,
  });
}
