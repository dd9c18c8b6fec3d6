import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { resolvePolicy } from './policy.js';

describe('resolvePolicy: every option through the one validator', () => {
  it.each([
    [
      'timeoutMs',
      { timeoutMs: 3_000_000_000 },
      'must be an integer between 1 and 2147483647, got 3000000000',
    ],
    ['retry.baseDelayMs', { retry: { baseDelayMs: 2 ** 31 } }, 'between 0 and 2147483647'],
    ['retry.maxDelayMs', { retry: { maxDelayMs: Number.POSITIVE_INFINITY } }, 'got Infinity'],
    ['concurrency', { concurrency: '4' }, 'got "4"'],
    ['maxResultChars', { maxResultChars: 10n }, 'got 10n'],
    ['unknownTool', { unknownTool: 'ignore' }, `must be one of 'feedback', 'throw', got "ignore"`],
    ['classifyError', { classifyError: 'fatal' }, 'must be a function'],
    ['decide', { decide: {} }, 'must be a function'],
    ['showErrorMessages', { showErrorMessages: 'true' }, 'must be true, false or a function, got "true"'],
    ['showErrorMessages', { showErrorMessages: Symbol('x') }, 'got a symbol'],
  ])('%s is checked once, with the option named', (option, policy, message) => {
    let error: unknown;
    try {
      resolvePolicy(policy as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect(error).toMatchObject({ option });
    expect((error as Error).message).toContain(message);
  });

  it('accepts the largest timer value a timer can hold', () => {
    expect(resolvePolicy({ timeoutMs: 2_147_483_647 }).timeoutFor({ timeoutMs: undefined } as never)).toBe(
      2_147_483_647,
    );
  });
});
