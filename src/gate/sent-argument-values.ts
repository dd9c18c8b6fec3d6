import { holdsSecret } from '../redact/redact.js';
import { isSecretKey } from '../redact/secret-key-words.js';
import { addWithEscaped } from './argument-strings.js';

/**
 * What an error text may show of the values the model sent in a call's arguments.
 * - `keep`: shown as they are where the text echoes them: the model sent them and needs them to correct
 *   itself (`ENOENT: no such file or directory, open '/data/q3.csv'`). A value is not kept, so the rules
 *   judge it as any other text, when it is a secret (found by the credential rules: a key, a token, a
 *   password, credentials in a URL), when it is short (`MIN_KEPT_LENGTH`: a word of the message as often
 *   as a value), or when it is one word of letters only (`select`, `Bearer`: words some rules start with).
 * - `withhold`: the values of secret-looking keys (`password`, `apiKey`), removed wherever the text echoes
 *   them, so that a secret the model sent stays hidden even where no rule would find it (`hunter2`).
 */
export interface SentArgumentValues {
  readonly keep: readonly string[];
  readonly withhold: readonly string[];
}

const MIN_KEPT_LENGTH = 6;
/** Shorter values of secret keys are left to the rules: they are words of the message as often as values. */
const MIN_WITHHELD_LENGTH = 4;
/** Longer values are contents, not names: an error does not echo them whole. */
const MAX_KEPT_LENGTH = 2_000;
/** Nodes visited and values taken, at most: the arguments can be a megabyte. */
const MAX_NODES = 2_000;
const MAX_VALUES = 32;
const LETTERS_ONLY = /^\p{L}+$/u;
const NONE: SentArgumentValues = Object.freeze({ keep: [], withhold: [] });

/** The values of `rawArguments` (the call's arguments as the model sent them, JSON), each also JSON-escaped. */
export function sentArgumentValues(rawArguments: string | undefined): SentArgumentValues {
  if (rawArguments === undefined || rawArguments === '{}') return NONE;
  let args: unknown;
  try {
    args = JSON.parse(rawArguments);
  } catch {
    return NONE;
  }
  const keep = new Set<string>();
  const withhold = new Set<string>();
  const stack: { readonly node: unknown; readonly secret: boolean }[] = [{ node: args, secret: false }];
  for (let visited = 0; visited < MAX_NODES && keep.size + withhold.size < MAX_VALUES; visited++) {
    const entry = stack.pop();
    if (entry === undefined) break;
    const { node, secret } = entry;
    if (typeof node === 'string') {
      if (secret) {
        if (node.length >= MIN_WITHHELD_LENGTH) addWithEscaped(withhold, node);
      } else if (keepable(node)) addWithEscaped(keep, node);
    } else if (Array.isArray(node)) {
      for (const item of node.slice(0, MAX_NODES)) stack.push({ node: item, secret });
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node))
        stack.push({ node: value, secret: secret || isSecretKey(key) });
    }
  }
  return { keep: [...keep], withhold: [...withhold] };
}

function keepable(value: string): boolean {
  return (
    value.length >= MIN_KEPT_LENGTH &&
    value.length <= MAX_KEPT_LENGTH &&
    !LETTERS_ONLY.test(value) &&
    !holdsSecret(value)
  );
}
