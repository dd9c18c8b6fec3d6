import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../redact/redact.js';
import { CLEAN_ENTRY_CHARS, rememberingRedactor } from './remembering-redactor.js';

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

/** A redactor over `redactSecrets` that counts the texts it was asked to scan. */
function counted(maxChars: number) {
  const scanned: string[] = [];
  const redact = rememberingRedactor(maxChars, (text) => {
    scanned.push(text);
    return redactSecrets(text);
  });
  return { redact, scanned };
}

describe('rememberingRedactor', () => {
  it('answers as redactSecrets does, and scans a clean text once', () => {
    const { redact, scanned } = counted(1000);
    const clean = '{"state":"PAID"}';
    expect(redact(clean)).toBe(clean);
    expect(redact(clean)).toBe(clean);
    expect(scanned).toEqual([clean]);
  });

  it('never keeps a text that held a secret: it is scanned and redacted every time', () => {
    const { redact, scanned } = counted(1000);
    const text = `{"apiKey":"${SECRET}"}`;
    const once = redact(text);
    expect(once).toBe(redactSecrets(text));
    expect(once).not.toContain(SECRET);
    expect(redact(text)).toBe(once);
    expect(scanned).toEqual([text, text]);
  });

  it('keeps at most maxChars of clean text, each entry counted with its overhead, forgetting the oldest first', () => {
    const entry = 4 + CLEAN_ENTRY_CHARS;
    const { redact, scanned } = counted(2 * entry + 2);
    for (const text of ['aaaa', 'bbbb', 'cccc']) redact(text);
    // Three entries over a budget of two: `aaaa` is forgotten, the others are kept.
    redact('bbbb');
    redact('cccc');
    redact('aaaa');
    expect(scanned).toEqual(['aaaa', 'bbbb', 'cccc', 'aaaa']);
    // A text longer than the budget is never kept.
    const long = 'x'.repeat(2 * entry);
    redact(long);
    redact(long);
    expect(scanned.filter((text) => text === long)).toHaveLength(2);
  });

  it('stays within its bound when the texts are tiny: each one counts its entry, not only its length', () => {
    // Room for 100 entries: 200 distinct texts of a few characters (600 in all) cannot all stay.
    const { redact, scanned } = counted(100 * (3 + CLEAN_ENTRY_CHARS));
    const distinct = Array.from({ length: 200 }, (_, i) => `t${i}`);
    for (const text of distinct) redact(text);
    const before = scanned.length;
    for (const text of distinct) redact(text);
    expect(scanned.length - before).toBeGreaterThanOrEqual(100);
  });
});
