import { ERROR_CODES, type ToolwardenCode } from './error-codes.js';

const MARKER = Symbol.for('toolwarden.error');

/**
 * Base of every error toolwarden throws. `code` is stable and meant for programs (see `ERROR_CODES`),
 * `blame` says who is to blame, `message` is for people.
 *
 * Every class carries its own `Symbol.for('toolwarden.error.<ClassName>')` marker and its own `static
 * isInstance`, which answers for that class only and works across two copies of the package (it checks the
 * marker, not the prototype). `ToolwardenError.isInstance` answers for every toolwarden error.
 */
export abstract class ToolwardenError<C extends ToolwardenCode = ToolwardenCode> extends Error {
  readonly code: C;
  /**
   * Who is to blame, by the code's row of `ERROR_CODES`: `model` (a bad call, a loop), `tool` (a tool's code
   * or the service behind it), `caller` (an option, a definition, a callback, a saved state, an abort) or
   * `runtime` (the environment, such as the model provider).
   */
  readonly blame: (typeof ERROR_CODES)[C]['blame'];
  readonly [MARKER] = true;

  constructor({ code, message, cause }: { code: C; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.blame = ERROR_CODES[code].blame;
  }

  static isInstance(value: unknown): value is ToolwardenError {
    return ToolwardenError.hasMarker(value, MARKER);
  }

  static hasCode<C extends ToolwardenCode>(value: unknown, code: C): value is ToolwardenError<C> {
    if (!ToolwardenError.isInstance(value)) return false;
    try {
      return value.code === code;
    } catch {
      return false;
    }
  }

  /** True when `value` carries `marker`; false for anything else, a Proxy whose traps throw included. */
  protected static hasMarker(value: unknown, marker: symbol): boolean {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
    try {
      return (value as Record<symbol, unknown>)[marker] === true;
    } catch {
      return false;
    }
  }
}
