import { numberOptionProblem } from '../options/check-option.js';

/**
 * What a tool tells the loop guard about its results, declared on the tool (`defineTool({ loop })`) or per
 * loop (`guard: { hints: { toolName: {...} } }`, which wins field by field).
 */
export interface LoopHints {
  /**
   * Result fields that do not count: volatile timestamps, request ids, cursors. Key names, matched at any
   * depth with case, `_` and `-` ignored; added to `DEFAULT_VOLATILE_RESULT_FIELDS`.
   */
  readonly ignoreFields?: readonly string[];
  /**
   * The tool is meant to be called again and again with the same answer: a job's status that is polled, or
   * a pacing tool (`wait`) between polls. After its first answer, up to `maxUnchanged` unchanged answers
   * in a request are expected (default `DEFAULT_MAX_UNCHANGED_POLLS`); the model is told to wait on the way.
   */
  readonly polled?: boolean | { readonly maxUnchanged?: number };
  /**
   * Different arguments may legitimately give the same result (availability checks, lookups that mostly
   * find nothing): the same-result detector leaves the tool alone. Write tools are treated so always.
   */
  readonly sharedResults?: boolean;
  /** The order of the arrays in the result does not count (the same items in another order are the same result). */
  readonly unordered?: boolean;
}

const HINT_KEYS = new Set(['ignoreFields', 'polled', 'sharedResults', 'unordered']);
const MAX_IGNORED_FIELDS = 256;
const MAX_FIELD_NAME_LENGTH = 256;

/**
 * What is wrong with a hints value (for the caller's own error class), or undefined when it is usable.
 * Checked once, when the tool or the loop is defined.
 */
export function loopHintsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must be an object ({ ignoreFields, polled, sharedResults, unordered })';
  const hints = value as Record<string, unknown>;
  for (const key of Object.keys(hints)) {
    if (!HINT_KEYS.has(key))
      return `has an unknown key ${JSON.stringify(key.slice(0, 64))} (known: ${[...HINT_KEYS].join(', ')})`;
  }
  const { ignoreFields, polled, sharedResults, unordered } = hints;
  if (ignoreFields !== undefined) {
    if (!Array.isArray(ignoreFields) || ignoreFields.length > MAX_IGNORED_FIELDS)
      return `ignoreFields must be an array of at most ${MAX_IGNORED_FIELDS} field names`;
    for (const field of ignoreFields) {
      if (typeof field !== 'string' || field === '' || field.length > MAX_FIELD_NAME_LENGTH)
        return `ignoreFields must hold non-empty field names of at most ${MAX_FIELD_NAME_LENGTH} characters`;
    }
  }
  if (polled !== undefined && typeof polled !== 'boolean') {
    if (typeof polled !== 'object' || polled === null || Array.isArray(polled))
      return 'polled must be a boolean or { maxUnchanged }';
    const extra = Object.keys(polled).find((key) => key !== 'maxUnchanged');
    if (extra !== undefined) return `polled has an unknown key ${JSON.stringify(extra.slice(0, 64))}`;
    const max = (polled as { maxUnchanged?: unknown }).maxUnchanged;
    const problem =
      max === undefined ? undefined : numberOptionProblem(max, { option: 'maxUnchanged', min: 2 });
    if (problem !== undefined) return `polled.maxUnchanged ${problem}`;
  }
  if (sharedResults !== undefined && typeof sharedResults !== 'boolean')
    return 'sharedResults must be a boolean';
  if (unordered !== undefined && typeof unordered !== 'boolean') return 'unordered must be a boolean';
  return undefined;
}
