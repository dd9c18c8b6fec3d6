import { findSchemaProblem } from '../formats/find-schema-problem.js';
import { describeType } from '../formats/read-tool-fields.js';
import { ToolFormatError } from '../formats/tool-format-error.js';

/**
 * BFCL possible answers list acceptable values per argument: `{ arg: [value, value, ...] }`, where `""`
 * means the argument may be omitted, a dict value is itself `{ key: [acceptable...] }` (recursively, also
 * inside arrays: `[[{ "x": [1] }]]`), and any other value (an array too) is one literal value. A bare
 * value where a list is expected is read as the only acceptable value (BFCL's simple_java_64 has one).
 */

/** One concrete argument object a possible answer accepts. */
export interface BfclAnswerVariant {
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Absent for the preferred variant; else which argument was varied (a JSON Pointer) and how. */
  readonly varied?: { readonly path: string; readonly omitted: boolean; readonly value?: unknown };
}

interface Expansion<T> {
  readonly preferred: T;
  readonly variants: readonly {
    readonly path: string;
    readonly omitted: boolean;
    readonly value?: unknown;
    readonly whole: T;
  }[];
}

const OMIT = Symbol('omit');

/**
 * Expands one expected call's arguments into concrete argument objects: first the preferred one (each
 * argument's first acceptable value, left out when that is `""`, or when the list is empty), then one per
 * other option of each argument, at any depth, with everything else preferred. Every acceptable value thus appears in some
 * variant, and the count stays linear (the full product of options can run to millions).
 */
export function expandBfclAnswer(acceptable: Readonly<Record<string, unknown>>): BfclAnswerVariant[] {
  if (typeof acceptable !== 'object' || acceptable === null || Array.isArray(acceptable)) {
    throw new ToolFormatError({
      format: 'bfcl',
      path: 'ground_truth',
      problem: `the arguments of an expected call must be an object of lists, got ${describeType(acceptable)}.`,
    });
  }
  const problem = findSchemaProblem(acceptable, 'possible answer');
  if (problem !== undefined) {
    throw new ToolFormatError({
      format: 'bfcl',
      path: `ground_truth.${problem.path}`,
      problem: problem.message,
    });
  }
  const { preferred, variants } = expandDict(acceptable);
  return [
    { arguments: preferred },
    ...variants.map(({ path, omitted, value, whole }) => ({
      arguments: whole,
      varied: omitted ? { path, omitted } : { path, omitted, value },
    })),
  ];
}

function expandDict(answer: Readonly<Record<string, unknown>>): Expansion<Record<string, unknown>> {
  const keys = Object.keys(answer);
  const options = keys.map((key) => {
    const listed = answer[key];
    return (Array.isArray(listed) ? listed : [listed]).map((value: unknown) =>
      value === '' ? OMIT : expandValue(value),
    );
  });
  const chosen = options.map((list) => (list.length === 0 ? -1 : 0));
  const preferred: Record<string, unknown> = {};
  keys.forEach((key, k) => {
    const option = options[k]?.[chosen[k] ?? -1];
    if (option !== undefined && option !== OMIT) define(preferred, key, option.preferred);
  });
  const variants: Array<Expansion<Record<string, unknown>>['variants'][number]> = [];
  keys.forEach((key, k) => {
    const pointer = `/${escapePointer(key)}`;
    options[k]?.forEach((option, index) => {
      if (option === OMIT) {
        if (index === chosen[k]) return;
        const whole = { ...preferred };
        delete whole[key];
        variants.push({ path: pointer, omitted: true, whole });
        return;
      }
      if (index !== chosen[k]) {
        variants.push({
          path: pointer,
          omitted: false,
          value: option.preferred,
          whole: replaced(preferred, key, option.preferred),
        });
      }
      for (const inner of option.variants) {
        variants.push({
          ...inner,
          path: `${pointer}${inner.path}`,
          whole: replaced(preferred, key, inner.whole),
        });
      }
    });
  });
  return { preferred, variants };
}

function expandValue(value: unknown): Expansion<unknown> {
  if (Array.isArray(value)) {
    const elements = value.map(expandValue);
    const preferred = elements.map((element) => element.preferred);
    const variants = elements.flatMap((element, index) =>
      element.variants.map((inner) => {
        const whole = preferred.slice();
        whole[index] = inner.whole;
        return { ...inner, path: `/${index}${inner.path}`, whole };
      }),
    );
    return { preferred, variants };
  }
  if (typeof value === 'object' && value !== null) return expandDict(value as Record<string, unknown>);
  return { preferred: value, variants: [] };
}

function replaced(
  object: Readonly<Record<string, unknown>>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const copy = { ...object };
  define(copy, key, value);
  return copy;
}

/** Sets an own property even for a key like `__proto__`, which plain assignment would turn into a prototype. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
