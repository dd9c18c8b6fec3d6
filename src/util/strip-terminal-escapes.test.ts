import { describe, expect, it } from 'vitest';
import { stripTerminalEscapes } from './strip-terminal-escapes.js';

describe('stripTerminalEscapes', () => {
  it('removes colours, screen clearing, cursor moves and window titles whole, keeping the words', () => {
    expect(
      stripTerminalEscapes('\u001b[2J\u001b[31mORDERS_DB_URL\u001b[0m is not set\u001b]0;pwned\u0007\u0007'),
    ).toBe('ORDERS_DB_URL is not set');
    expect(stripTerminalEscapes('a\u001b[1;2Hb\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\c')).toBe(
      'ablinkc',
    );
    expect(stripTerminalEscapes('x\u009b31my\u001bcz')).toBe('xyz');
  });

  it('removes other control characters and bidirectional overrides; line breaks become spaces', () => {
    expect(stripTerminalEscapes('a\u0000b\u0008c\u007fd\u202ee\u2066f\tg')).toBe('abcdef\tg');
    expect(stripTerminalEscapes('one\ntwo\r\nthree\rfour\u2028five')).toBe('one two three four five');
  });

  it('keepLineBreaks: each line break is a plain newline (a carriage return cannot rewrite a line)', () => {
    expect(stripTerminalEscapes('one\r\ntwo\rthree\n', { keepLineBreaks: true })).toBe('one\ntwo\nthree\n');
  });

  it('a cut-off sequence at the end is removed too', () => {
    expect(stripTerminalEscapes('text\u001b[31')).toBe('text');
    expect(stripTerminalEscapes('text\u001b')).toBe('text');
  });
});
