import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact, summarizeArguments } from './redact.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';
import {
  isSecretKey,
  SECRET_KEY_HINTS,
  SECRET_KEY_WORDS,
  SECRET_NAME_HINTS,
  SECRET_NAME_PATTERN,
  type SecretKeyWord,
} from './secret-key-words.js';
import { MAY_HAVE_SECRET_KEY, textTraits } from './text-traits.js';

const SECRET = 'hunter2';
const capitalize = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const partsOf = (entry: SecretKeyWord) => entry.word.split(' ');

/** Keys a JSON key rule must accept, as people write them. */
function keysFor(entry: SecretKeyWord): string[] {
  const parts = partsOf(entry);
  const joined = parts.join('');
  switch (entry.inKey) {
    case undefined:
      return [];
    case 'part':
      return [joined, joined.toUpperCase(), `db${capitalize(joined)}`, `x-${joined}-v2`, `my_${joined}s`];
    case 'word':
      return [joined, joined.toUpperCase(), `user${capitalize(joined)}`, `x-${joined}`, `${joined}_value`];
    case 'word-end':
      return [joined, `csrf${joined}`, `access${capitalize(joined)}`, `X_${joined.toUpperCase()}`];
    default:
      return entry.inKey satisfies never;
  }
}

/** Names a text rule must accept before `=` or `:`. */
function namesFor(entry: SecretKeyWord): string[] {
  const parts = partsOf(entry);
  const forms = [parts.join('_'), parts.join('-'), parts.join('')];
  switch (entry.inText) {
    case undefined:
      return [];
    case 'end':
      return forms.flatMap((form) => [form, `DB_${form.toUpperCase()}`, `my${capitalize(form)}`]);
    case 'word':
      return forms.flatMap((form) => [form, `db_${form}`, `X-${form.toUpperCase()}`]);
    case 'separated':
      return forms.flatMap((form) => [`x_${form}`, `x-${form}`, `API_${form.toUpperCase()}`]);
    default:
      return entry.inText satisfies never;
  }
}

const nameValueGuard = REDACTION_PATTERNS.find(({ pattern }) =>
  pattern.source.includes(SECRET_NAME_PATTERN),
)?.mayMatch;

describe('the secret-key words (one list for every rule and pre-check)', () => {
  it('holds lowercase words, and every entry is a rule for keys, for text, or both', () => {
    for (const entry of SECRET_KEY_WORDS) {
      expect(entry.word).toMatch(/^[a-z0-9]+( [a-z0-9]+)*$/);
      expect(entry.inKey !== undefined || entry.inText !== undefined).toBe(true);
    }
    expect(new Set(SECRET_KEY_WORDS.map((entry) => entry.word)).size).toBe(SECRET_KEY_WORDS.length);
  });

  it.each(
    SECRET_KEY_WORDS.filter((entry) => entry.inKey !== undefined).map(
      (entry) => [entry.word, entry] as const,
    ),
  )('a JSON key with %j sets the pre-check bit and its value is redacted', (_word, entry) => {
    for (const key of keysFor(entry)) {
      const json = JSON.stringify({ [key]: SECRET, city: 'Paris' });
      expect({ key, secretKey: isSecretKey(key) }).toEqual({ key, secretKey: true });
      expect({ key, hinted: (textTraits(json) & MAY_HAVE_SECRET_KEY) !== 0 }).toEqual({ key, hinted: true });
      const summary = summarizeArguments(json, 200);
      expect(summary).not.toContain(SECRET);
      expect(summary).toContain('"city":"Paris"');
    }
  });

  it.each(
    SECRET_KEY_WORDS.filter((entry) => entry.inText !== undefined).map(
      (entry) => [entry.word, entry] as const,
    ),
  )('a name ending with %j in text passes the guard and its value is redacted', (_word, entry) => {
    expect(nameValueGuard).toBeTypeOf('function');
    for (const name of namesFor(entry)) {
      for (const text of [`connect failed: ${name}=${SECRET}`, `${name}: ${SECRET} rejected`]) {
        expect({ text, guard: nameValueGuard?.(text) }).toEqual({ text, guard: true });
        expect(redact(text)).not.toContain(SECRET);
      }
    }
  });

  it('leaves keys and names that only look alike', () => {
    for (const key of ['max_tokens', 'monkey', 'keyboard', 'compass', 'author', 'spinner', 'city']) {
      expect({ key, secretKey: isSecretKey(key) }).toEqual({ key, secretKey: false });
    }
    expect(summarizeArguments('{"monkey": "george", "max_tokens": 5}', 200)).toBe(
      '{"monkey": "george", "max_tokens": 5}',
    );
    expect(redact('monkey=george compass: north')).toBe('monkey=george compass: north');
  });

  it('pre-checks are supersets: any key the rule accepts holds a hint', () => {
    const hint = new RegExp(SECRET_KEY_HINTS.join('|'), 'i');
    const piece = fc.oneof(
      fc.constantFrom(...SECRET_KEY_WORDS.flatMap((entry) => partsOf(entry))),
      fc.constantFrom('_', '-', '.', ' ', 'X', 'a', '1'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const key = pieces.join('');
        if (isSecretKey(key)) expect({ key, hinted: hint.test(key) }).toEqual({ key, hinted: true });
      }),
      { numRuns: 3000 },
    );
    expect(SECRET_NAME_HINTS.length).toBeGreaterThan(0);
  });
});
