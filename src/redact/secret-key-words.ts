/**
 * The words that make a key or a name look like it holds a secret: the one list. Everything that decides
 * whether a key names a secret derives from it, so a word added here is redacted everywhere, and the
 * cheap pre-checks (text-traits.ts, the guard of the `name=value` pattern) look for it too:
 *
 * - `isSecretKey`, the rule for JSON keys of tool-call arguments (`summarizeArguments`);
 * - `SECRET_NAME_PATTERN`, the rule for `name=value` and `name: value` in error text (`redact`);
 * - `SECRET_KEY_HINTS` and `SECRET_NAME_HINTS`, literals that every key (name) the rules match contains.
 */
export interface SecretKeyWord {
  /** Lowercase letters and digits; a space separates the parts of a compound (`api key`, `session id`). */
  readonly word: string;
  /**
   * How a JSON key matches: `part`, the word (parts joined) inside one run of letters and digits of the
   * key, any case (`client_secret`, `dbPassword`, `apikey`); `word`, a whole word of the key, split at
   * separators and camel case (`auth`, `userPin`, `x-api-key`); `word-end`, a word ending with it
   * (`csrftoken`). Omitted: not a rule for keys.
   */
  readonly inKey?: 'part' | 'word' | 'word-end';
  /**
   * How a name in text matches: the name ends with the word, its parts joined by an optional `_` or `-`:
   * `end` anywhere (`DB_PASSWORD`), `word` only after no letter or digit (`db_pass`, not `compass`),
   * `separated` only after `_` or `-` (`x-api-key`, not `monkey`). Omitted: not a rule for text.
   */
  readonly inText?: 'end' | 'word' | 'separated';
}

export const SECRET_KEY_WORDS: readonly SecretKeyWord[] = [
  { word: 'password', inKey: 'part', inText: 'end' },
  { word: 'passwd', inKey: 'part', inText: 'end' },
  { word: 'passphrase', inKey: 'part', inText: 'end' },
  { word: 'pass', inKey: 'word', inText: 'word' },
  { word: 'pwd', inKey: 'word', inText: 'end' },
  { word: 'secret', inKey: 'part', inText: 'end' },
  { word: 'token', inKey: 'word-end', inText: 'end' },
  { word: 'api key', inKey: 'part', inText: 'end' },
  { word: 'access key', inText: 'end' },
  { word: 'secret key', inText: 'end' },
  { word: 'private', inKey: 'part' },
  { word: 'private key', inText: 'end' },
  { word: 'signing key', inText: 'end' },
  { word: 'encryption key', inText: 'end' },
  { word: 'master key', inText: 'end' },
  { word: 'key', inKey: 'word', inText: 'separated' },
  { word: 'key id', inText: 'separated' },
  { word: 'credential', inKey: 'part', inText: 'end' },
  { word: 'credentials', inText: 'end' },
  { word: 'authorization', inKey: 'part', inText: 'end' },
  { word: 'auth', inKey: 'word', inText: 'word' },
  { word: 'cookie', inKey: 'part', inText: 'end' },
  { word: 'session id', inText: 'end' },
  { word: 'signature', inText: 'end' },
  { word: 'pin', inKey: 'word', inText: 'separated' },
  { word: 'pw', inKey: 'word', inText: 'separated' },
  { word: 'passcode', inKey: 'part', inText: 'end' },
  { word: 'salt', inKey: 'word', inText: 'separated' },
  { word: 'seed', inText: 'separated' },
  { word: 'account key', inText: 'end' },
  { word: 'otp', inKey: 'word' },
  { word: 'cvv', inKey: 'word' },
  { word: 'cvc', inKey: 'word' },
  { word: 'ssn', inKey: 'word' },
  { word: 'jwt', inKey: 'word' },
];

const partsOf = (entry: SecretKeyWord): string[] => entry.word.split(' ');
const KEY_RULES = SECRET_KEY_WORDS.filter((entry) => entry.inKey !== undefined);
const TEXT_RULES = SECRET_KEY_WORDS.filter((entry) => entry.inText !== undefined);

const KEY_PARTS = KEY_RULES.filter((entry) => entry.inKey === 'part').map((entry) => partsOf(entry).join(''));
const KEY_WORDS: ReadonlySet<string> = new Set(
  KEY_RULES.filter((entry) => entry.inKey === 'word').map((entry) => entry.word),
);
const KEY_WORD_ENDS = KEY_RULES.filter((entry) => entry.inKey === 'word-end').map((entry) => entry.word);

const CAMEL_BOUNDARY = /([a-z0-9])([A-Z])/g;
const NON_ALPHANUMERIC = /[^a-z0-9]+/;

/** Whether a JSON key names a secret (`password`, `client_secret`, `apiKey`, `x-auth-token`, `userPin`). */
export function isSecretKey(key: string): boolean {
  const runs = key.toLowerCase().split(NON_ALPHANUMERIC);
  if (KEY_PARTS.some((part) => runs.some((run) => run.includes(part)))) return true;
  const words = key.replace(CAMEL_BOUNDARY, '$1 $2').toLowerCase().split(NON_ALPHANUMERIC);
  return words.some((word) => KEY_WORDS.has(word) || KEY_WORD_ENDS.some((end) => word.endsWith(end)));
}

const TEXT_PREFIX = { end: '', word: '(?<![a-z0-9])', separated: '[_-]' } as const;

/**
 * The end of a name whose value is a secret in text (`DB_PASSWORD=`, `x-api-key:`), as a regex source for
 * the `i` flag: one alternative per text rule.
 */
export const SECRET_NAME_PATTERN = TEXT_RULES.map(
  (entry) => `${TEXT_PREFIX[entry.inText as keyof typeof TEXT_PREFIX]}${partsOf(entry).join('[_-]?')}`,
).join('|');

/**
 * Literals, any case, one of which every key `isSecretKey` accepts contains: a part (parts joined) or a
 * word is written in the key as it is. Literals that contain a shorter one are left out.
 */
export const SECRET_KEY_HINTS: readonly string[] = minimalLiterals(
  KEY_RULES.map((entry) => partsOf(entry).join('')),
);

/**
 * Literals, any case, one of which every name `SECRET_NAME_PATTERN` matches contains: for a compound, a
 * part that a one-word rule looks for already, else its longest part (a separator may stand between
 * parts, never inside one).
 */
export const SECRET_NAME_HINTS: readonly string[] = minimalLiterals(TEXT_RULES.map(nameHint));

function nameHint(entry: SecretKeyWord): string {
  const parts = partsOf(entry);
  const known = parts.find((part) => TEXT_RULES.some((other) => other.word === part));
  return known ?? parts.reduce((longest, part) => (part.length > longest.length ? part : longest), '');
}

/** The literals, without those that contain another (text that holds the longer holds the shorter). */
function minimalLiterals(literals: readonly string[]): string[] {
  const unique = [...new Set(literals)];
  return unique.filter((literal) => !unique.some((other) => other !== literal && literal.includes(other)));
}
