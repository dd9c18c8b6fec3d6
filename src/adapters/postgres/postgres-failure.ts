import { StoreError } from '../../core/errors/store-error.js';

/**
 * A failure of node-postgres or of the server as the store port reports it: `StoreError` (`unavailable`),
 * with the driver's error as its cause and its code in the message (a SQLSTATE such as `57P01`, the server
 * shutting down, or `3D000`, no such database; or a socket's `ECONNREFUSED`). A refused connection, a
 * timeout, a dropped connection, a statement cancelled by `statement_timeout` and a refused login all land
 * here. A `StoreError` raised inside a store call (a corrupt value) passes as it is.
 */
export function postgresFailure(operation: string, error: unknown): StoreError {
  if (StoreError.isInstance(error)) return error;
  const { code, message } = (error instanceof Error ? error : {}) as { code?: unknown; message?: string };
  // An AggregateError (a host that resolves to several addresses, all refused) has an empty message.
  const text = message || (error instanceof AggregateError ? 'no address of the host answered' : '');
  return new StoreError({
    reason: 'unavailable',
    operation,
    message: `PostgreSQL: ${typeof code === 'string' ? `${code}: ` : ''}${text || 'the driver failed'}`,
    cause: error,
  });
}
