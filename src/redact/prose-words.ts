/**
 * Words that start the message of a validation issue in `field: message` form (`password: must be at
 * least 12 characters`, `token: expired`): after such a word, what follows a secret's name is prose
 * about the field, not its value. English first, then the languages the benign corpus covers.
 */
export const PROSE_WORDS: readonly string[] = [
  // English
  'must',
  'is',
  'are',
  'should',
  'cannot',
  'can',
  'may',
  'needs',
  'need',
  'has',
  'have',
  'was',
  'were',
  'does',
  'do',
  'did',
  'not',
  'too',
  'expected',
  'required',
  'invalid',
  'missing',
  'empty',
  'expired',
  'revoked',
  'malformed',
  'unknown',
  'only',
  'at least',
  'at most',
  'exceeds',
  'contains',
  'passwords',
  'value',
  'this',
  'the',
  'a',
  'an',
  'no',
  // German, French, Spanish, Portuguese, Italian, Dutch
  'muss',
  'darf',
  'ist',
  'fehlt',
  'doit',
  'est',
  'ne',
  'debe',
  'es',
  'deve',
  'non',
  'moet',
  'mag',
];

/** The words as a regex source for the `i` flag: one of them, as a whole word. */
export const PROSE_WORD_PATTERN = `(?:${PROSE_WORDS.map((word) => word.replace(' ', '[ \\t]+')).join('|')})\\b`;
