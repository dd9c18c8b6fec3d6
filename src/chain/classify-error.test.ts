import { describe, expect, it } from 'vitest';
import { FatalToolError } from '../core/errors/fatal-tool-error.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import { ToolTimeoutError } from '../core/errors/tool-timeout-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import { classifyError, resolveErrorClass } from './classify-error.js';

const withFields = (message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(message), fields);

describe('classifyError', () => {
  it.each([
    ['ToolInputError', new ToolInputError({ message: 'bad date' }), 'invalid-input'],
    ['TransientToolError', new TransientToolError({ message: 'busy' }), 'transient'],
    ['ToolTimeoutError', new ToolTimeoutError({ toolName: 't', timeoutMs: 5 }), 'transient'],
    ['PermissionDeniedError', new PermissionDeniedError({ message: 'no' }), 'denied'],
    ['FatalToolError', new FatalToolError({ message: 'bug' }), 'fatal'],
    ['ECONNRESET', withFields('socket hang up', { code: 'ECONNRESET' }), 'transient'],
    ['HTTP 429', withFields('rate limited', { status: 429 }), 'transient'],
    ['HTTP 503 statusCode', withFields('down', { statusCode: 503 }), 'transient'],
    ['HTTP 403', withFields('forbidden', { status: 403 }), 'denied'],
    ['HTTP 404', withFields('not found', { status: 404 }), 'invalid-input'],
    ['DOMException TimeoutError', new DOMException('timed out', 'TimeoutError'), 'transient'],
    [
      'fetch failed with ECONNREFUSED cause',
      new TypeError('fetch failed', { cause: withFields('x', { code: 'ECONNREFUSED' }) }),
      'transient',
    ],
    ['TypeError', new TypeError("Cannot read properties of undefined (reading 'x')"), 'fatal'],
    ['ReferenceError', new ReferenceError('x is not defined'), 'fatal'],
    ['RangeError', new RangeError('Maximum call stack size exceeded'), 'fatal'],
    ['plain Error', new Error('Order 42 is already shipped'), 'invalid-input'],
    ['string', 'boom', 'invalid-input'],
    ['null', null, 'invalid-input'],
    ['undefined', undefined, 'invalid-input'],
    ['plain object', { reason: 'x' }, 'invalid-input'],
  ])('%s', (_name, error, expected) => {
    expect(classifyError(error)).toBe(expected);
  });

  it('does not trust hostile thrown values: throwing getters and cause cycles', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(classifyError(hostile)).toBe('invalid-input');
    const cyclic: { cause?: unknown } = {};
    cyclic.cause = cyclic;
    expect(classifyError(cyclic)).toBe('invalid-input');
  });

  it('lets the tool classifier win over the global one, and both over the built-in policy', () => {
    const error = new Error('quota');
    expect(
      resolveErrorClass(
        error,
        () => 'transient',
        () => 'denied',
      ),
    ).toBe('transient');
    expect(
      resolveErrorClass(
        error,
        () => undefined,
        () => 'denied',
      ),
    ).toBe('denied');
    expect(resolveErrorClass(error, undefined, undefined)).toBe('invalid-input');
  });
});
