import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import {
  checkChoice,
  checkFunction,
  checkNumberOption,
  describeOptionValue,
  numberOptionProblem,
} from './check-option.js';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Values no numeric option accepts, whatever its range: none is a finite primitive number. */
const notNumbers = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null, true, false),
  fc.string(),
  fc.bigInt(),
  fc.constantFrom(
    '30',
    ' 30 ',
    '0x1e',
    '',
    30n,
    Object(30),
    { valueOf: () => 30 },
    { toString: () => '30' },
    [30],
    Symbol('30'),
    () => 30,
    new Date(30),
    new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    ),
  ),
);

describe('checkNumberOption', () => {
  it('returns a value that obeys the rule, and undefined for an option that is not set', () => {
    expect(checkNumberOption(3, { option: 'retries', min: 0 })).toBe(3);
    expect(checkNumberOption(undefined, { option: 'retries', min: 0 })).toBeUndefined();
    expect(checkNumberOption(MAX_TIMER_MS, { option: 'timeoutMs', min: 1, timer: true })).toBe(MAX_TIMER_MS);
    expect(checkNumberOption(0.25, { option: 'costBudget', min: 0.01, integer: false })).toBe(0.25);
    expect(Object.is(checkNumberOption(-0, { option: 'retries', min: 0 }), 0)).toBe(true);
  });

  it('refuses a timer value above 2^31 - 1 ms, which Node would fire at once', () => {
    const error = thrown(() =>
      checkNumberOption(3_000_000_000, { option: 'timeoutMs', min: 1, timer: true }),
    );
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect(error).toMatchObject({
      option: 'timeoutMs',
      message: 'Invalid option timeoutMs: must be an integer between 1 and 2147483647, got 3000000000',
    });
    // A smaller max than the timer's is kept; a larger one is capped.
    expect(numberOptionProblem(11, { option: 'd', min: 0, max: 10, timer: true })).toBe(
      'must be an integer between 0 and 10, got 11',
    );
    expect(numberOptionProblem(MAX_TIMER_MS + 1, { option: 'd', min: 0, max: 2 ** 40, timer: true })).toBe(
      `must be an integer between 0 and ${MAX_TIMER_MS}, got ${MAX_TIMER_MS + 1}`,
    );
  });

  it.each<[unknown, { min: number; minExclusive?: boolean; max?: number; integer?: boolean }, string]>([
    [-1, { min: 0 }, 'must be an integer >= 0, got -1'],
    [1.5, { min: 0 }, 'must be an integer >= 0, got 1.5'],
    [-0, { min: 1 }, 'must be an integer >= 1, got -0'],
    [2 ** 53, { min: 0 }, 'must be an integer >= 0, got 9007199254740992'],
    [Number.NaN, { min: 0, integer: false }, 'must be a number >= 0, got NaN'],
    [Number.POSITIVE_INFINITY, { min: 0, integer: false }, 'must be a number >= 0, got Infinity'],
    ['30', { min: 0 }, 'must be an integer >= 0, got "30"'],
    [30n, { min: 0 }, 'must be an integer >= 0, got 30n'],
    [{ valueOf: (): number => 30 }, { min: 0 }, 'must be an integer >= 0, got an object'],
    [null, { min: 0 }, 'must be an integer >= 0, got null'],
    [0, { min: 0, minExclusive: true, integer: false }, 'must be a number > 0, got 0'],
    [-0, { min: 0, minExclusive: true, integer: false }, 'must be a number > 0, got -0'],
    [11, { min: 0, minExclusive: true, max: 10 }, 'must be an integer > 0 and <= 10, got 11'],
  ])('refuses %p with a message that names the rule', (value, rule, message) => {
    expect(numberOptionProblem(value, { option: 'x', ...rule })).toBe(message);
    expect(() => checkNumberOption(value, { option: 'x', ...rule })).toThrow(`Invalid option x: ${message}`);
  });

  it('refuses every value that is not a finite primitive number, whatever the rule, without running its code', () => {
    const rule = fc.record({
      min: fc.integer({ min: -10, max: 10 }),
      integer: fc.boolean(),
      timer: fc.boolean(),
    });
    fc.assert(
      fc.property(notNumbers, rule, (value, { min, integer, timer }) => {
        const error = thrown(() => checkNumberOption(value, { option: 'o', min, integer, timer }));
        expect(error).toBeInstanceOf(InvalidOptionsError);
        expect((error as InvalidOptionsError).option).toBe('o');
        expect((error as Error).message.length).toBeLessThan(200);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts exactly the safe integers in range, and returns them unchanged', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger()),
        fc.integer({ min: -100, max: 100 }),
        fc.boolean(),
        (value, min, timer) => {
          const max = timer ? MAX_TIMER_MS : Number.MAX_SAFE_INTEGER;
          const ok = Number.isSafeInteger(value) && value >= min && value <= max;
          const problem = numberOptionProblem(value, { option: 'o', min, timer });
          expect(problem === undefined).toBe(ok);
          if (ok) expect(checkNumberOption(value, { option: 'o', min, timer })).toBe(value + 0);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('accepts finite numbers in range when integers are not required', () => {
    fc.assert(
      fc.property(fc.double(), (value) => {
        const ok = Number.isFinite(value) && value >= 0;
        expect(numberOptionProblem(value, { option: 'o', min: 0, integer: false }) === undefined).toBe(ok);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('checkChoice and checkFunction', () => {
  it('return the value when it is allowed, undefined when not set, and throw otherwise', () => {
    const rule = { option: 'unknownTool', choices: ['feedback', 'throw'] } as const;
    expect(checkChoice('throw', rule)).toBe('throw');
    expect(checkChoice(undefined, rule)).toBeUndefined();
    expect(() => checkChoice('THROW', rule)).toThrow(
      `Invalid option unknownTool: must be one of 'feedback', 'throw', got "THROW"`,
    );
    expect(() => checkChoice(new String('throw'), rule)).toThrow(InvalidOptionsError);
    const listener = () => {};
    expect(checkFunction(listener, { option: 'onEvent' })).toBe(listener);
    expect(checkFunction(undefined, { option: 'onEvent' })).toBeUndefined();
    expect(() => checkFunction('run', { option: 'onEvent' })).toThrow(
      'Invalid option onEvent: must be a function, got "run"',
    );
  });

  it('refuse hostile values with a short message and never call into them', () => {
    fc.assert(
      fc.property(notNumbers, (value) => {
        expect(
          thrown(() => checkChoice(value, { option: 'c', choices: ['a-choice-no-string-generates'] })),
        ).toBeInstanceOf(InvalidOptionsError);
        if (typeof value !== 'function') {
          expect(thrown(() => checkFunction(value, { option: 'f' }))).toBeInstanceOf(InvalidOptionsError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('describeOptionValue', () => {
  it('shows a value without calling its methods, and keeps it short', () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(describeOptionValue(hostile)).toBe('an object');
    expect(describeOptionValue(Symbol('s'))).toBe('a symbol');
    expect(describeOptionValue(10n ** 60n)).toBe('a bigint');
    expect(describeOptionValue('x'.repeat(1000)).length).toBeLessThan(60);
  });
});
