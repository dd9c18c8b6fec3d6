import type { ErrorClass } from '../../core/error-class.js';
import type { ToolErrorCode } from '../../core/tool-execution-result.js';

const MARKER = Symbol.for('toolwarden.error.GuardedToolError');

/** The code of a guarded call's failure: the chain's tool-message code, or `LOOP_DETECTED` (the guard turned tools off). */
export type GuardedToolErrorCode = ToolErrorCode | 'LOOP_DETECTED';

/**
 * What a guarded tool's `execute` throws when toolwarden answers a call with an error. The AI SDK turns a
 * thrown error into a `tool-error` part and shows the model its `message`: here toolwarden's text for the
 * model, already classified, redacted and cut (never the tool's own message unless `showErrorMessages`
 * says so). The original failure is not attached (a `tool-error` part is logged and traced as it is): get
 * it from `onEvent` with `includeContent`.
 */
export class GuardedToolError extends Error {
  override readonly name = 'GuardedToolError';
  /** The result's code (`TOOL_ERROR`, `TOOL_CALL_LIMIT`, …), or `LOOP_STOPPED`. */
  readonly code: GuardedToolErrorCode;
  /** The failure's class, when the result gives one. */
  readonly errorClass: ErrorClass | undefined;
  /** The tool the model called. */
  readonly toolName: string;
  /** The call's id. */
  readonly toolCallId: string;
  readonly [MARKER] = true;

  constructor(options: {
    readonly message: string;
    readonly code: GuardedToolErrorCode;
    readonly errorClass?: ErrorClass;
    readonly toolName: string;
    readonly toolCallId: string;
  }) {
    super(options.message);
    this.code = options.code;
    this.errorClass = options.errorClass;
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
  }

  /** True for a `GuardedToolError` of any copy of toolwarden (it checks a marker, not the prototype). */
  static isInstance(value: unknown): value is GuardedToolError {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
    try {
      return (value as Record<symbol, unknown>)[MARKER] === true;
    } catch {
      return false;
    }
  }
}
