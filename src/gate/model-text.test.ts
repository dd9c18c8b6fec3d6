import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_MODEL_TEXT_CHARS } from '../core/defaults.js';
import {
  argumentPath,
  foreign,
  type ModelTextPart,
  modelText,
  plainText,
  toolNamePart,
  WITHHELD_VALUE,
} from './model-text.js';

const DSN = 'postgres://user:S3cr3t@db.internal:5432/app';

describe('modelText: the one gate', () => {
  it("keeps toolwarden's own words as they are, and redacts foreign text", () => {
    const text = modelText(["Tool 'lookup' said: ", foreign(`cannot connect to ${DSN}`, 300)]);
    expect(text.startsWith("Tool 'lookup' said: cannot connect to ")).toBe(true);
    expect(text).not.toContain('S3cr3t');
    expect(text).not.toContain('db.internal');
  });

  it('cuts foreign text to its own limit after redacting it, and the whole to the gate limit', () => {
    expect(modelText([foreign('x '.repeat(500), 20)]).length).toBeLessThanOrEqual(20);
    const whole = modelText(['a'.repeat(DEFAULT_MAX_MODEL_TEXT_CHARS * 2)]);
    expect(whole).toHaveLength(DEFAULT_MAX_MODEL_TEXT_CHARS);
    expect(whole.endsWith('…')).toBe(true);
    expect(modelText(['abcdef'], 4)).toBe('abc…');
  });

  it('never cuts between the halves of a surrogate pair', () => {
    const text = modelText([`ab${'😀'.repeat(10)}`], 5);
    expect(text).toBe('ab😀…');
  });

  it('keeps the shape of an argument path, redacting only a key that holds a secret', () => {
    expect(modelText([argumentPath('/items/0/id')])).toBe('/items/0/id');
    expect(modelText([argumentPath('')])).toBe('/');
    expect(modelText([argumentPath('/a~1b/c~0d')])).toBe('/a~1b/c~0d');
    const secretKey = modelText([argumentPath(`/config/${DSN.replaceAll('/', '~1')}`)]);
    expect(secretKey.startsWith('/config/')).toBe(true);
    expect(secretKey).not.toContain('S3cr3t');
    expect(modelText([argumentPath(`/${'k'.repeat(500)}`)]).length).toBeLessThanOrEqual(120);
  });

  it('withholds exact values before redaction: a secret no pattern knows does not get through', () => {
    const text = modelText([foreign('Expected "a" | "b" but received "hunter2x"', 160, ['hunter2x'])]);
    expect(text).toBe(`Expected "a" | "b" but received "${WITHHELD_VALUE}"`);
    // Longest first, so a value inside another one does not leave the rest behind.
    expect(modelText([foreign('got abcdefgh', 160, ['abcd', 'abcdefgh'])])).toBe(`got ${WITHHELD_VALUE}`);
  });

  it('shows a legal tool name as it is and treats any other name as foreign text', () => {
    expect(toolNamePart('getOrder_v2-beta')).toBe('getOrder_v2-beta');
    const made = modelText([toolNamePart(`\u202e${DSN}\u0000`)]);
    expect(made).not.toContain('S3cr3t');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none survive.
    expect(made).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(modelText([toolNamePart('')])).toBe('(empty)');
  });

  it('gives developers the same parts unredacted and uncut (plainText)', () => {
    const parts: ModelTextPart[] = ['at ', argumentPath(''), ': ', foreign(DSN, 5, [DSN])];
    expect(plainText(parts)).toBe(`at /: ${DSN}`);
  });

  it('shows nothing of a foreign part that is not a string (a hostile schema library)', () => {
    expect(modelText(['[', foreign(42 as unknown as string, 10), ']'])).toBe('[]');
    expect(modelText(['[', foreign({ toString: () => DSN } as unknown as string, 10), ']'])).toBe('[]');
  });

  it('bounds a megabyte of foreign text and a megabyte of withheld values', () => {
    const huge = `${'word '.repeat(200_000)}${DSN}`;
    const text = modelText([foreign(huge, 300, [DSN, 'w'.repeat(1_000_000)])]);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).not.toContain('S3cr3t');
  });
});
