import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../redact/redact.js';
import { rememberingRedactor } from './remembering-redactor.js';

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

  it('keeps at most maxChars of clean text, forgetting the oldest first', () => {
    const { redact, scanned } = counted(10);
    for (const text of ['aaaa', 'bbbb', 'cccc']) redact(text);
    // 12 characters over a budget of 10: `aaaa` is forgotten, the others are kept.
    redact('bbbb');
    redact('cccc');
    redact('aaaa');
    expect(scanned).toEqual(['aaaa', 'bbbb', 'cccc', 'aaaa']);
    // A text longer than the budget is never kept.
    redact('x'.repeat(11));
    redact('x'.repeat(11));
    expect(scanned.filter((text) => text.length === 11)).toHaveLength(2);
  });
});
