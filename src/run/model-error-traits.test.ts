import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ModelStreamError } from '../core/errors/model-stream-error.js';
import { ModelTimeoutError } from '../core/errors/model-timeout-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import { modelErrorTraits } from './model-error-traits.js';

function apiCallError(options: Partial<ConstructorParameters<typeof APICallError>[0]> = {}): APICallError {
  return new APICallError({ message: 'failed', url: 'http://x/v1', requestBodyValues: {}, ...options });
}

const NOON = Date.parse('2030-01-01T12:00:00Z');

describe('modelErrorTraits: retryable as the AI SDK decides', () => {
  it.each([408, 409, 429, 500, 502, 503, 504, 529])(
    'an APICallError with status %i is retryable',
    (status) => {
      expect(modelErrorTraits(apiCallError({ statusCode: status }))).toEqual({ retryable: true, status });
    },
  );

  it.each([400, 401, 403, 404, 413, 422])('an APICallError with status %i is not', (status) => {
    expect(modelErrorTraits(apiCallError({ statusCode: status }))).toEqual({ retryable: false, status });
  });

  it("follows the error's own isRetryable over its status", () => {
    expect(modelErrorTraits(apiCallError({ statusCode: 429, isRetryable: false })).retryable).toBe(false);
    expect(modelErrorTraits(apiCallError({ statusCode: 400, isRetryable: true })).retryable).toBe(true);
  });

  it('finds a network failure anywhere in the cause chain, and names its code', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const fetchFailed = new TypeError('fetch failed', { cause: refused });
    expect(modelErrorTraits(fetchFailed)).toEqual({ retryable: true, networkError: 'ECONNREFUSED' });
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const broken = new ModelStreamError({
      reason: 'threw',
      partial: { text: '', toolCalls: [], parts: 0 },
      cause: new TypeError('terminated', { cause: socket }),
    });
    expect(modelErrorTraits(broken)).toEqual({ retryable: true, networkError: 'UND_ERR_SOCKET' });
  });

  it("reads through a stream's break-off to the provider's error", () => {
    const broken = new ModelStreamError({
      reason: 'threw',
      partial: { text: '', toolCalls: [], parts: 0 },
      cause: apiCallError({ statusCode: 503 }),
    });
    expect(modelErrorTraits(broken)).toEqual({ retryable: true, status: 503 });
  });

  it("retries toolwarden's timeout and transient errors, and a client's own TimeoutError", () => {
    expect(modelErrorTraits(new ModelTimeoutError({ timeoutMs: 5 }))).toEqual({
      retryable: true,
      timeoutMs: 5,
    });
    expect(modelErrorTraits(new TransientToolError({ message: 'busy', retryAfterMs: 700 }))).toEqual({
      retryable: true,
      retryAfterMs: 700,
    });
    expect(modelErrorTraits(new DOMException('timed out', 'TimeoutError')).retryable).toBe(true);
  });

  it('does not retry an abort, a plain error, a defect, or a thrown non-error', () => {
    for (const error of [
      new DOMException('aborted', 'AbortError'),
      new Error('boom'),
      new TypeError('x is not a function'),
      'a string',
      undefined,
      null,
      42,
    ]) {
      expect(modelErrorTraits(error)).toEqual({ retryable: false });
    }
  });
});

describe("modelErrorTraits: the provider's error name, redacted", () => {
  it("reads OpenAI's error.code, else error.type, from the AI SDK's parsed data or its response body", () => {
    const limited = apiCallError({
      statusCode: 429,
      data: { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } },
    });
    expect(modelErrorTraits(limited).providerError).toBe('rate_limit_exceeded');
    const failed = apiCallError({
      statusCode: 500,
      responseBody: JSON.stringify({ error: { message: 'sorry', type: 'server_error', code: null } }),
    });
    expect(modelErrorTraits(failed).providerError).toBe('server_error');
  });

  it("reads Anthropic's error.type and Gemini's error.status", () => {
    const anthropic = apiCallError({
      statusCode: 529,
      responseBody: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
    expect(modelErrorTraits(anthropic).providerError).toBe('overloaded_error');
    const gemini = apiCallError({
      statusCode: 429,
      responseBody: '{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}',
    });
    expect(modelErrorTraits(gemini).providerError).toBe('RESOURCE_EXHAUSTED');
  });

  it("reads an OpenAI SDK error's status, Headers and error", () => {
    const error = Object.assign(new Error('429 Rate limit reached'), {
      status: 429,
      headers: new Headers({ 'Retry-After': '2' }),
      error: { message: 'Rate limit reached', type: 'tokens', code: 'rate_limit_exceeded' },
    });
    expect(modelErrorTraits(error)).toEqual({
      retryable: true,
      status: 429,
      providerError: 'rate_limit_exceeded',
      retryAfterMs: 2000,
    });
  });

  it('redacts the name and cuts it; a body that is not JSON names nothing', () => {
    const secret = apiCallError({
      statusCode: 400,
      responseBody: JSON.stringify({ error: { code: `key sk-proj-${'a1B2c3D4'.repeat(6)} refused` } }),
    });
    const name = modelErrorTraits(secret).providerError ?? '';
    expect(name).not.toContain('a1B2c3D4');
    expect(name).toContain('[redacted');
    const long = apiCallError({
      statusCode: 400,
      responseBody: JSON.stringify({ error: { type: 'x'.repeat(500) } }),
    });
    expect((modelErrorTraits(long).providerError ?? '').length).toBeLessThanOrEqual(100);
    expect(
      modelErrorTraits(apiCallError({ statusCode: 502, responseBody: '<html>Bad gateway</html>' })),
    ).toEqual({
      retryable: true,
      status: 502,
    });
  });
});

describe('modelErrorTraits: the wait the provider asked for', () => {
  const asked = (headers: Record<string, string>) =>
    modelErrorTraits(apiCallError({ statusCode: 429, responseHeaders: headers }), () => NOON).retryAfterMs;

  it('reads retry-after-ms first, then Retry-After in seconds or as a date', () => {
    expect(asked({ 'retry-after-ms': '1500.5', 'retry-after': '9' })).toBe(1501);
    expect(asked({ 'retry-after': '1' })).toBe(1000);
    expect(asked({ 'retry-after': '0.25' })).toBe(250);
    expect(asked({ 'Retry-After': '3' })).toBe(3000);
    expect(asked({ 'retry-after': new Date(NOON + 5_000).toUTCString() })).toBe(5000);
  });

  it('ignores a wait that is negative or not a number or a date', () => {
    expect(asked({ 'retry-after': new Date(NOON - 5_000).toUTCString() })).toBeUndefined();
    expect(asked({ 'retry-after': '-1' })).toBeUndefined();
    expect(asked({ 'retry-after': 'soon' })).toBeUndefined();
    expect(asked({ 'retry-after-ms': 'NaN', 'retry-after': '2' })).toBe(2000);
  });
});

describe('modelErrorTraits: hostile errors', () => {
  it('survives getters that throw, proxies that lie, and a cause chain that loops', () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('no');
        },
        ownKeys() {
          throw new Error('no');
        },
      },
    );
    expect(modelErrorTraits(trap)).toEqual({ retryable: false });
    const headers = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    expect(modelErrorTraits({ statusCode: 429, responseHeaders: headers })).toEqual({
      retryable: true,
      status: 429,
    });
    const looped: { cause?: unknown; code: string } = { code: 'ECONNRESET' };
    looped.cause = looped;
    expect(modelErrorTraits(looped)).toEqual({ retryable: true, networkError: 'ECONNRESET' });
    expect(modelErrorTraits({ statusCode: 'five hundred', status: 1e9 })).toEqual({ retryable: false });
  });
});
