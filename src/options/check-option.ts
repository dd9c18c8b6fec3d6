import { MAX_TIMER_MS } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';

/**
 * The one rule for option values, checked once when options are read: every numeric option of
 * `defineTool`, the call limits, the chain's policy and the loop goes through `checkNumberOption`, so
 * they accept and refuse the same values and say so in the same words.
 *
 * `undefined` means "not set" and is returned as it is (the caller applies its default); anything else
 * must be a primitive number that obeys the rule. Strings (`'30'`), BigInt (`30n`), boxed numbers and
 * objects with a `valueOf` are refused, never converted; so are NaN and ±Infinity.
 */
export interface NumberOptionRule {
  /** The option's path as the caller wrote it (`timeoutMs`, `limits.perTool`): errors name it. */
  readonly option: string;
  /** The smallest value allowed (with `minExclusive`, the value must be greater). */
  readonly min: number;
  /** The value must be greater than `min` (`costBudget`: a number > 0). Default: false. */
  readonly minExclusive?: boolean;
  /** The largest value allowed (default: `Number.MAX_SAFE_INTEGER`, or `MAX_TIMER_MS` for a timer). */
  readonly max?: number;
  /** Whole numbers only (default: true). Integers must also be safe integers. */
  readonly integer?: boolean;
  /**
   * The value is handed to `setTimeout` (a timeout, a delay, a time budget): at most `MAX_TIMER_MS`
   * (2^31 − 1 ms). Node fires a larger timeout after 1 ms, so such a value would time out at once.
   */
  readonly timer?: boolean;
}

/**
 * The option's value when it obeys `rule` (−0 becomes 0), undefined when it is not set; otherwise throws
 * `InvalidOptionsError` with `option` and a message such as
 * `must be an integer between 1 and 2147483647, got 3000000000`.
 */
export function checkNumberOption(value: unknown, rule: NumberOptionRule): number | undefined {
  if (value === undefined) return undefined;
  const problem = numberOptionProblem(value, rule);
  if (problem !== undefined) throw new InvalidOptionsError({ option: rule.option, message: problem });
  return (value as number) + 0;
}

/** `checkNumberOption` for a value that must be given (a factory's argument): undefined is refused too. */
export function requireNumberOption(value: unknown, rule: NumberOptionRule): number {
  const checked = checkNumberOption(value, rule);
  if (checked === undefined) {
    throw new InvalidOptionsError({ option: rule.option, message: 'is required (a number)' });
  }
  return checked;
}

/**
 * What is wrong with a set value (`must be an integer >= 0, got -1`), or undefined when it obeys `rule`:
 * for callers that raise their own error class (`defineTool` raises `ToolDefinitionError`).
 */
export function numberOptionProblem(value: unknown, rule: NumberOptionRule): string | undefined {
  const integer = rule.integer ?? true;
  const ceiling = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
  const max = Math.min(rule.max ?? ceiling, rule.timer === true ? MAX_TIMER_MS : ceiling);
  const fits =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    (rule.minExclusive === true ? value > rule.min : value >= rule.min) &&
    value <= max;
  if (fits) return undefined;
  const kind = integer ? 'an integer' : 'a number';
  const exclusive = rule.minExclusive === true;
  const range =
    max === ceiling
      ? `${exclusive ? '>' : '>='} ${rule.min}`
      : exclusive
        ? `> ${rule.min} and <= ${max}`
        : `between ${rule.min} and ${max}`;
  return `must be ${kind} ${range}, got ${describeOptionValue(value)}`;
}

/** The option's value when it is one of `choices`, undefined when it is not set; otherwise throws. */
export function checkChoice<const T extends string>(
  value: unknown,
  rule: { readonly option: string; readonly choices: readonly T[] },
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (rule.choices as readonly string[]).includes(value)) return value as T;
  throw new InvalidOptionsError({
    option: rule.option,
    message: `must be one of ${rule.choices.map((choice) => `'${choice}'`).join(', ')}, got ${describeOptionValue(value)}`,
  });
}

/** The option's value when it is a function, undefined when it is not set; otherwise throws. */
export function checkFunction<T>(value: T | undefined, rule: { readonly option: string }): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') return value;
  throw new InvalidOptionsError({
    option: rule.option,
    message: `must be a function, got ${describeOptionValue(value)}`,
  });
}

/**
 * What is wrong with a value that must be `true`, `false` or a function (`showErrorMessages`), or undefined
 * when it is one or is not set: for callers that raise their own error class.
 */
export function flagOrFunctionProblem(value: unknown): string | undefined {
  if (value === undefined || typeof value === 'boolean' || typeof value === 'function') return undefined;
  return `must be true, false or a function, got ${describeOptionValue(value)}`;
}

/** The option's value when it is a boolean or a function, undefined when it is not set; otherwise throws. */
export function checkFlagOrFunction<T extends boolean | ((...args: never[]) => unknown)>(
  value: T | undefined,
  rule: { readonly option: string },
): T | undefined {
  const problem = flagOrFunctionProblem(value);
  if (problem !== undefined) throw new InvalidOptionsError({ option: rule.option, message: problem });
  return value;
}

/**
 * A refused value, shown without running any of its code (no `toString`, `valueOf` or Proxy trap) and
 * short: numbers as written (`-0` kept), strings quoted and cut, anything else by its kind.
 */
export function describeOptionValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`.length > 40 ? 'a bigint' : `${value}n`;
    case 'string':
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}… (a string)` : JSON.stringify(value);
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    case 'object':
      return value === null ? 'null' : 'an object';
    default:
      return typeof value;
  }
}
