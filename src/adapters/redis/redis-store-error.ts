import { StoreError } from '../../core/errors/store-error.js';
import { lateWriteError } from '../../store/store-deadline.js';
import { CORRUPT_REPLY, LATE_REPLY } from './redis-scripts.js';

/**
 * What a failed Redis call means for the store: `corrupt` when the key holds something the store did not
 * write (`WRONGTYPE`: an entry where a counter is expected, or the other way round, or a key another
 * program wrote; `TWCORRUPT`: a field not of the store's shape), `unavailable` for everything else (no
 * connection, a closed or offline client, a timeout, and refusals such as `OOM`, `READONLY`, `NOAUTH`).
 * The client's error is kept as the cause. Redis 7 starts a script's error with the code; Redis 6 and
 * Valkey put it after `ERR Error running script`, so the code is looked for anywhere in the message.
 */
export function toRedisStoreError(error: unknown, operation: string): StoreError {
  if (StoreError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/\bWRONGTYPE\b/.test(message)) {
    return new StoreError({
      reason: 'corrupt',
      operation,
      message: 'the key holds another kind of Redis value (an entry is a hash, a counter a string)',
      cause: error,
    });
  }
  if (message.includes(CORRUPT_REPLY)) {
    return new StoreError({
      reason: 'corrupt',
      operation,
      message: message.slice(message.indexOf(CORRUPT_REPLY) + CORRUPT_REPLY.length).trim(),
      cause: error,
    });
  }
  if (message.includes(LATE_REPLY)) return lateWriteError(operation);
  return new StoreError({ reason: 'unavailable', operation, message: `Redis: ${message}`, cause: error });
}
