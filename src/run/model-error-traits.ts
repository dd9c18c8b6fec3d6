import { TRANSIENT_CODES } from '../chain/classify-error.js';
import { ModelTimeoutError } from '../core/errors/model-timeout-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import type { ModelErrorTraits } from '../core/model-failure.js';
import { redactForModel } from '../redact/redact.js';
import { readField } from '../util/read-field.js';

/**
 * Network failures worth another try: the chain's (`classifyError`) and the rest of the AI SDK's
 * (`handleFetchError`: Bun's names), found on the error or anywhere in its `cause` chain.
 */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  ...TRANSIENT_CODES,
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
]);
const MAX_CAUSE_DEPTH = 8;
/** A response body longer than this is not parsed for the provider's error name. */
const MAX_BODY_CHARS = 64 * 1024;
const MAX_PROVIDER_ERROR_CHARS = 100;

/**
 * What a model call's failure says of itself, read from the error and its `cause` chain without trusting
 * it (getters may throw): an AI SDK `APICallError`'s `isRetryable`, `statusCode`, `responseHeaders` and
 * body (`data`, `responseBody`); an OpenAI or Anthropic SDK error's `status`, `headers` and `error`; a
 * network error's `code`; toolwarden's `ModelTimeoutError` and `TransientToolError`. Retryable as the AI
 * SDK decides (`isRetryable` when the error has it, else 408, 409, 429, 5xx and network failures), and
 * a timeout of the provider's client (`TimeoutError`) too; an `AbortError` is not. `wallNow` reads
 * a `Retry-After` date.
 */
export function modelErrorTraits(error: unknown, wallNow: () => number = Date.now): ModelErrorTraits {
  let isRetryable: boolean | undefined;
  let status: number | undefined;
  let headers: object | undefined;
  let providerError: string | undefined;
  let networkError: string | undefined;
  let timeoutMs: number | undefined;
  let retryAfterField: number | undefined;
  let transient = false;
  const seen = new Set<object>();
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && isObject(current) && !seen.has(current); depth++) {
    seen.add(current);
    if (ModelTimeoutError.isInstance(current)) {
      timeoutMs ??= numberField(current, 'timeoutMs');
      transient = true;
    }
    if (TransientToolError.isInstance(current)) transient = true;
    const retryable = readField(current, 'isRetryable');
    if (typeof retryable === 'boolean') isRetryable ??= retryable;
    status ??= statusOf(current);
    const found = readField(current, 'responseHeaders') ?? readField(current, 'headers');
    if (isObject(found)) headers ??= found;
    providerError ??= providerErrorOf(current);
    const code = readField(current, 'code');
    if (typeof code === 'string' && NETWORK_CODES.has(code)) networkError ??= code;
    if (readField(current, 'name') === 'TimeoutError') transient = true;
    retryAfterField ??= numberField(current, 'retryAfterMs');
    current = readField(current, 'cause');
  }
  const retryable =
    isRetryable ??
    (transient || networkError !== undefined || (status !== undefined && retriedStatus(status)));
  const retryAfterMs = retryAfterOf(headers, wallNow) ?? retryAfterField;
  return {
    retryable,
    ...(status === undefined ? {} : { status }),
    ...(providerError === undefined ? {} : { providerError }),
    ...(networkError === undefined ? {} : { networkError }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** The AI SDK's rule (`APICallError`): request timeout, conflict, too many requests, server errors. */
function retriedStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function statusOf(error: object): number | undefined {
  const status = readField(error, 'statusCode') ?? readField(error, 'status');
  return typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599
    ? status
    : undefined;
}

/**
 * The provider's name for the error, from the body the error carries: the AI SDK's parsed `data` or its
 * `responseBody` text, or the `error` an OpenAI or Anthropic SDK error keeps (not an `Error` itself).
 */
function providerErrorOf(error: object): string | undefined {
  const data = readField(error, 'data');
  const text = readField(error, 'responseBody');
  const kept = readField(error, 'error');
  const body = isObject(data)
    ? data
    : typeof text === 'string'
      ? parseBody(text)
      : isObject(kept) && typeof readField(kept, 'stack') !== 'string'
        ? kept
        : undefined;
  if (!isObject(body)) return undefined;
  const inner = readField(body, 'error');
  const source = isObject(inner) ? inner : body;
  for (const key of ['code', 'type', 'status']) {
    const value = readField(source, key);
    if (typeof value === 'string' && value.trim() !== '') {
      return redactForModel(value, MAX_PROVIDER_ERROR_CHARS);
    }
  }
  return undefined;
}

function parseBody(text: string): unknown {
  if (text.length > MAX_BODY_CHARS) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The wait the provider asked for, in ms, as the AI SDK reads it: `retry-after-ms` (OpenAI's, more
 * precise), else `Retry-After` in seconds or as an HTTP date. A negative or unreadable value is none.
 */
function retryAfterOf(headers: object | undefined, wallNow: () => number): number | undefined {
  if (headers === undefined) return undefined;
  const ms = decimal(header(headers, 'retry-after-ms'));
  if (ms !== undefined) return Math.ceil(ms);
  const after = header(headers, 'retry-after');
  if (after === undefined) return undefined;
  const seconds = decimal(after);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  const date = Date.parse(after);
  const wait = date - wallNow();
  return Number.isFinite(wait) && wait >= 0 ? Math.ceil(wait) : undefined;
}

/** A header of a plain record (the AI SDK's, any case) or of a `Headers` (the OpenAI SDK's). */
function header(headers: object, name: string): string | undefined {
  try {
    const get = readField(headers, 'get');
    if (typeof get === 'function') {
      const value: unknown = get.call(headers, name);
      return typeof value === 'string' ? value : undefined;
    }
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() !== name) continue;
      const value = readField(headers, key);
      return typeof value === 'string' ? value : undefined;
    }
  } catch {
    // A header that cannot be read is not there.
  }
  return undefined;
}

function decimal(text: string | undefined): number | undefined {
  return text !== undefined && /^\s*\d+(?:\.\d+)?\s*$/.test(text) ? Number(text) : undefined;
}

function numberField(value: object, key: string): number | undefined {
  const field = readField(value, key);
  return typeof field === 'number' && Number.isFinite(field) && field >= 0 ? field : undefined;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
