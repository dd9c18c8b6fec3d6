import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { sanitizeName } from '../redact/redact.js';
import { describeOptionValue } from './check-option.js';
import { didYouMean } from './did-you-mean.js';

/** The options a function takes, by name: a record of every key of its options' type, so none is forgotten. */
export type OptionNames<T> = Readonly<Record<keyof T, true>>;

/**
 * Refuses options that are not an object, and an option `known` does not name (a typo, another library's
 * habit such as `maxSteps`), which would otherwise be ignored: `InvalidOptionsError` naming it, a
 * suggestion when a known one is close (or the word of `habits` for it), and the known ones. Only own
 * enumerable names count.
 */
export function checkOptionNames(
  options: unknown,
  known: ReadonlySet<string>,
  rule: { readonly of: string; readonly habits?: Readonly<Record<string, string>> },
): asserts options is object {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidOptionsError({
      option: 'options',
      message: `${rule.of} expects an options object, got ${describeOptionValue(options)}`,
    });
  }
  for (const name of Object.keys(options)) {
    if (known.has(name)) continue;
    const habit =
      rule.habits !== undefined && Object.hasOwn(rule.habits, name) ? rule.habits[name] : undefined;
    const near = habit === undefined ? didYouMean(name, [...known]) : undefined;
    const advice =
      habit !== undefined ? `: ${habit}` : near !== undefined ? ` (did you mean "${near}"?)` : '';
    throw new InvalidOptionsError({
      option: sanitizeName(name),
      message: `is not an option of ${rule.of}${advice}; known: ${[...known].sort().join(', ')}`,
    });
  }
}

/** The names of an `OptionNames` record, as a set, for `checkOptionNames`. */
export function optionNameSet(...records: readonly object[]): ReadonlySet<string> {
  return new Set(records.flatMap((record) => Object.keys(record)));
}
