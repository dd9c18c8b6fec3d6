import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_ERROR_MESSAGES } from './__fixtures__/hostile-error-messages.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';
import { mayNeedRedaction } from './text-traits.js';

/** Whether the pattern matches anywhere in the text (a fresh copy: no shared lastIndex). */
function matches(pattern: RegExp, text: string): boolean {
  return new RegExp(pattern.source, pattern.flags.replace('g', '')).test(text);
}

function expectGuardsHold(text: string): void {
  const anyMatch = REDACTION_PATTERNS.some(({ pattern }) => matches(pattern, text));
  if (anyMatch) expect(mayNeedRedaction(text)).toBe(true);
  for (const { kind, pattern, mayMatch } of REDACTION_PATTERNS) {
    if (matches(pattern, text))
      expect({ kind, source: pattern.source.slice(0, 40), guard: mayMatch(text) }).toMatchObject({
        guard: true,
      });
  }
}

describe('redaction pattern guards', () => {
  it('never skip a pattern that would match a hostile message', () => {
    let matched = 0;
    for (const { message } of HOSTILE_ERROR_MESSAGES) {
      expectGuardsHold(message);
      for (const line of message.split('\n')) expectGuardsHold(line);
      matched += REDACTION_PATTERNS.filter(({ pattern }) => matches(pattern, message)).length;
    }
    expect(matched).toBeGreaterThan(50);
  });

  it('skip most patterns for ordinary short arguments', () => {
    const text = '{"a": 20, "b": 22}';
    const run = REDACTION_PATTERNS.filter(({ mayMatch }) => mayMatch(text));
    expect(run.length).toBeLessThanOrEqual(2);
    expect(mayNeedRedaction(text)).toBe(false);
    expect(mayNeedRedaction('{"password": "x"}')).toBe(true);
    // Length alone is no reason: only a run of 32 token characters could be a random secret.
    expect(mayNeedRedaction('{"location": "Boston, MA", "unit": "celsius", "days": 3}')).toBe(false);
    expect(mayNeedRedaction(`{"k": "${'aB3'.repeat(11)}"}`)).toBe(true);
    expect(mayNeedRedaction('{"right": "high night"}')).toBe(false);
    expect(mayNeedRedaction('{"t": "ghp_0123456789abcdefghij0123"}')).toBe(true);
  });

  it('never skip a pattern that would match arbitrary text built from secret-ish pieces', () => {
    const piece = fc.constantFrom(
      'Bearer ',
      'token=',
      'password: ',
      '@',
      'user:pw',
      '::1',
      '10.0.0.1',
      ':5432',
      'db.prod.internal',
      'https://',
      '/var/lib/x',
      'C:\\Users\\x',
      '\\\\srv\\share',
      'eyJhbGciOi.eyJzdWIiOi.sig',
      'sk-abcdefghijklmnopqrstuvwxyz',
      'AKIAIOSFODNN7EXAMPLE',
      'SELECT * FROM t',
      'select "a" from b',
      '    at f (/x.js:1:2)',
      'File "/x.py", line 3',
      'Key (email)=(a@b.c)',
      'arn:aws:iam::123456789012:user/x',
      'aB3'.repeat(12),
      '-----BEGIN PRIVATE KEY-----',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 12 })), { maxLength: 8 }), (pieces) => {
        expectGuardsHold(pieces.join(''));
        expectGuardsHold(pieces.join(' '));
      }),
      { numRuns: 500 },
    );
  });
});
