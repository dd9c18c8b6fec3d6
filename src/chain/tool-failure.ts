import { DEFAULT_DENIED_TEXT, DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../core/defaults.js';
import type { ErrorClass } from '../core/error-class.js';
import { ContractViolationError } from '../core/errors/contract-violation-error.js';
import type { ToolCallFailure, ToolErrorCode } from '../core/tool-execution-result.js';
import { errorArgumentPaths } from '../gate/error-argument-paths.js';
import { formatToolError } from '../gate/format-tool-error.js';
import { argumentPath, foreign, type ModelTextPart } from '../gate/model-text.js';
import { sentArgumentValues } from '../gate/sent-argument-values.js';
import { writtenForModel } from '../gate/written-for-model.js';

/** What a call denied by its tool (a `PermissionDeniedError`) tells the model; denials before a call runs say the policy's `deniedText`. */
export const PERMISSION_DENIED_TEXT = DEFAULT_DENIED_TEXT;

/**
 * A failed call as the model sees it (`content`) and as developers see it (`error`, the original).
 * `optedIn` says whether the tool or the policy opened an error of unknown provenance (`showErrorMessages`);
 * it is asked only for such an error of a class that can show text.
 */
export function toolFailure({
  base,
  error,
  errorClass,
  attempts,
  durationMs,
  optedIn,
  sent,
}: {
  readonly base: { readonly toolCallId: string; readonly toolName: string };
  readonly error: unknown;
  readonly errorClass: ErrorClass;
  readonly attempts: number;
  readonly durationMs: number;
  readonly optedIn?: (error: unknown) => boolean;
  /** The call's arguments as the model sent them: what of them the error echoes is shown as it is, or withheld (`sentArgumentValues`). */
  readonly sent?: string;
}): ToolCallFailure {
  const [code, parts] = modelView(base.toolName, error, errorClass, attempts, optedIn, sent);
  return {
    type: 'error',
    toolCallId: base.toolCallId,
    toolName: base.toolName,
    code,
    errorClass,
    error,
    content: formatToolError(code, parts),
    attempts,
    durationMs,
  };
}

/**
 * What the model may know of a failure: the code and the hint of its class. An error's own text is added
 * only when it was written for the model (`ToolInputError`, `TransientToolError`) or opted in, and only for
 * the classes the model can act on; then it is foreign text to the gate (redacted, cut).
 */
function modelView(
  toolName: string,
  error: unknown,
  errorClass: ErrorClass,
  attempts: number,
  optedIn: ((error: unknown) => boolean) | undefined,
  sent: string | undefined,
): [ToolErrorCode, ModelTextPart[]] {
  if (ContractViolationError.isInstance(error) && errorClass !== 'fatal') {
    return [
      'CONTRACT_VIOLATION',
      [
        `Tool '${toolName}' returned a result that does not match its declared output, so it was withheld. Calling it again with the same arguments will not help: use another approach or answer with what you have.`,
      ],
    ];
  }
  switch (errorClass) {
    case 'invalid-input': {
      const message = shownMessage(error, optedIn, sent);
      if (message !== undefined) return ['TOOL_ERROR', [message]];
      return ['TOOL_ERROR', withheldInputHint(toolName, errorArgumentPaths(error))];
    }
    case 'transient': {
      const times = `${attempts} ${attempts === 1 ? 'time' : 'times'}`;
      const hint = `Tool '${toolName}' is temporarily unavailable (tried ${times}). Try again later or continue without it.`;
      const message = shownMessage(error, optedIn, sent);
      return ['TOOL_UNAVAILABLE', message === undefined ? [hint] : [hint, ' The tool said: ', message]];
    }
    case 'denied':
      return ['PERMISSION_DENIED', [PERMISSION_DENIED_TEXT]];
    case 'fatal':
      return [
        'INTERNAL_ERROR',
        [`Tool '${toolName}' failed with an internal error; do not repeat this call.`],
      ];
    case 'aborted':
      return ['ABORTED', ['The call was cancelled before it finished.']];
    default: {
      const unreachable: never = errorClass;
      throw new TypeError(`unknown error class ${String(unreachable)}`);
    }
  }
}

/**
 * An error of unknown provenance, or one written for the model without a readable message: the model is
 * told the text is withheld, which arguments to look at (when the error names them), and that resending the
 * same call will not help (models otherwise resubmit it again and again).
 */
function withheldInputHint(toolName: string, paths: readonly string[]): ModelTextPart[] {
  const named: ModelTextPart[] = [];
  for (const [index, path] of paths.entries()) named.push(index === 0 ? ' ' : ', ', argumentPath(path));
  return [
    `Tool '${toolName}' failed; its error text is withheld. Check the arguments`,
    ...named,
    ' and call it again only with changed values: repeating the same call will not help.',
  ];
}

/** The error's message as foreign text, when the model may see it and it has any. */
function shownMessage(
  error: unknown,
  optedIn: ((error: unknown) => boolean) | undefined,
  sent: string | undefined,
): ModelTextPart | undefined {
  if (!writtenForModel(error) && optedIn?.(error) !== true) return undefined;
  const text = messageOf(error);
  if (text === undefined) return undefined;
  const { keep, withhold } = sentArgumentValues(sent);
  return foreign(text, DEFAULT_MAX_MODEL_MESSAGE_CHARS, withhold, keep);
}

/** Something to read: letters, digits, punctuation or symbols (not only spaces and invisible characters). */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** A thrown string, or an error's `message`, read without trusting its getter; undefined when there is nothing to read. */
function messageOf(error: unknown): string | undefined {
  let message: unknown = error;
  if (typeof error === 'object' && error !== null) {
    try {
      message = (error as { message?: unknown }).message;
    } catch {
      return undefined;
    }
  }
  return typeof message === 'string' && VISIBLE.test(message.slice(0, 10_000)) ? message : undefined;
}
