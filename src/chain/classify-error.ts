import type { ErrorClass } from '../core/error-class.js';
import { FatalToolError } from '../core/errors/fatal-tool-error.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import { ResultSerializationError } from '../core/errors/result-serialization-error.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import { ToolTimeoutError } from '../core/errors/tool-timeout-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import { readField } from '../util/read-field.js';

/** Node and undici error codes of failures that usually pass when tried again (the loop's model retries use them too). */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const TRANSIENT_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);
const DENIED_STATUS = new Set([401, 403]);
const DEFECT_CLASSES = [TypeError, ReferenceError, SyntaxError, RangeError, EvalError, URIError];
const MAX_CAUSE_DEPTH = 8;

/** Classifies what a tool threw (`undefined`: the default classification decides). */
export type ErrorClassifier = (error: unknown) => ErrorClass | undefined;

/**
 * The built-in policy. Typed toolwarden errors say what they are (by their marker, so an error from another
 * copy of the package counts too); otherwise network codes and HTTP
 * statuses (on the error or anywhere in its `cause` chain) mark transient or denied failures, and the
 * built-in defect classes (`TypeError`, `ReferenceError`, ...) mark fatal ones. Everything else is an
 * ordinary failure the model may work around (`invalid-input`).
 */
export function classifyError(error: unknown): ErrorClass {
  if (ToolInputError.isInstance(error)) return 'invalid-input';
  if (TransientToolError.isInstance(error) || ToolTimeoutError.isInstance(error)) return 'transient';
  if (PermissionDeniedError.isInstance(error)) return 'denied';
  if (FatalToolError.isInstance(error) || ResultSerializationError.isInstance(error)) return 'fatal';
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && isObject(current); depth++) {
    const signal = classifyBySignal(current);
    if (signal !== undefined) return signal;
    current = readField(current, 'cause');
  }
  if (isDefect(error)) return 'fatal';
  return 'invalid-input';
}

/** A built-in defect class; a proxy whose prototype trap throws is none. */
function isDefect(error: unknown): boolean {
  try {
    return DEFECT_CLASSES.some((defect) => error instanceof defect);
  } catch {
    return false;
  }
}

/** Applies the tool's classifier, then the caller's, then the built-in policy. */
export function resolveErrorClass(
  error: unknown,
  ...classifiers: ReadonlyArray<ErrorClassifier | undefined>
): ErrorClass {
  for (const classify of classifiers) {
    const decided = classify?.(error);
    if (decided !== undefined) return decided;
  }
  return classifyError(error);
}

function classifyBySignal(error: object): ErrorClass | undefined {
  const code = readField(error, 'code');
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return 'transient';
  const name = readField(error, 'name');
  if (name === 'TimeoutError') return 'transient';
  const status = readField(error, 'status') ?? readField(error, 'statusCode');
  if (typeof status === 'number') {
    if (TRANSIENT_STATUS.has(status)) return 'transient';
    if (DENIED_STATUS.has(status)) return 'denied';
  }
  return undefined;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
