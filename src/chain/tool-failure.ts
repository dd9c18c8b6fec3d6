import { DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../defaults.js';
import { ContractViolationError } from '../errors/contract-violation-error.js';
import { redactForModel } from '../redact/redact.js';
import type { ErrorClass } from './error-class.js';
import { formatToolError } from './format-tool-error.js';
import type { ToolCallFailure, ToolErrorCode } from './tool-execution-result.js';

/** A failed call as the model sees it (`content`) and as developers see it (`error`, unredacted). */
export function toolFailure({
  base,
  error,
  errorClass,
  attempts,
  durationMs,
}: {
  readonly base: { readonly toolCallId: string; readonly toolName: string };
  readonly error: unknown;
  readonly errorClass: ErrorClass;
  readonly attempts: number;
  readonly durationMs: number;
}): ToolCallFailure {
  const [code, message] = modelView(base.toolName, error, errorClass, attempts);
  return {
    type: 'error',
    toolCallId: base.toolCallId,
    toolName: base.toolName,
    code,
    errorClass,
    error,
    content: formatToolError(code, message),
    attempts,
    durationMs,
  };
}

/** What the model may know of a failure, by class. Only `invalid-input` shows any of the error's own text. */
function modelView(
  toolName: string,
  error: unknown,
  errorClass: ErrorClass,
  attempts: number,
): [ToolErrorCode, string] {
  if (error instanceof ContractViolationError && errorClass !== 'fatal') {
    return [
      'CONTRACT_VIOLATION',
      `Tool '${toolName}' returned a result that does not match its declared output, so it was withheld. Calling it again with the same arguments will not help: use another approach or answer with what you have.`,
    ];
  }
  switch (errorClass) {
    case 'invalid-input':
      return ['TOOL_ERROR', describeForModel(error)];
    case 'transient':
      return [
        'TOOL_UNAVAILABLE',
        `Tool '${toolName}' is temporarily unavailable (tried ${attempts} ${attempts === 1 ? 'time' : 'times'}). Try again later or continue without it.`,
      ];
    case 'denied':
      return ['PERMISSION_DENIED', 'This action is not permitted.'];
    case 'fatal':
      return ['INTERNAL_ERROR', `Tool '${toolName}' failed with an internal error.`];
    case 'aborted':
      return ['ABORTED', 'The call was cancelled before it finished.'];
    default: {
      const unreachable: never = errorClass;
      throw new TypeError(`unknown error class ${String(unreachable)}`);
    }
  }
}

function describeForModel(error: unknown): string {
  const text = messageOf(error);
  const redacted = text === undefined ? '' : redactForModel(text, DEFAULT_MAX_MODEL_MESSAGE_CHARS);
  return redacted === '' ? 'The tool failed without a message.' : redacted;
}

function messageOf(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (typeof error !== 'object' || error === null) return undefined;
  try {
    const message = (error as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}
