import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.StoreError');

/** A store adapter could not do what was asked. Nothing was written when a write failed this way, unless the adapter says so. */
export class StoreError extends ToolwardenError<'STORE_UNAVAILABLE'> {
  override readonly name = 'StoreError';
  /**
   * Why a store call failed: `unavailable` (the backing store could not be reached, timed out or refused),
   * `corrupt` (what it holds under the key is not a value toolwarden wrote: not JSON, or not of its shape).
   */
  readonly reason: 'unavailable' | 'corrupt';
  readonly operation: string;
  readonly [MARKER] = true;

  constructor({
    reason,
    operation,
    message,
    cause,
  }: {
    reason: StoreError['reason'];
    /** The store operation (`get`, `set`, `reserve`, …). */
    operation: string;
    message: string;
    cause?: unknown;
  }) {
    super({ code: 'STORE_UNAVAILABLE', message: `Store ${operation} failed (${reason}): ${message}`, cause });
    this.reason = reason;
    this.operation = operation;
  }

  static override isInstance(value: unknown): value is StoreError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
