import { describe, expect, it } from 'vitest';
import { parsePythonCall } from './parse-python-call.js';

describe('parsePythonCall', () => {
  it('reads keyword arguments of every literal kind', () => {
    expect(
      parsePythonCall(
        "f(a='x', b=\"y\", c=-2.5, d=True, e=None, f=False, g=[1, 'two'], h={'k': 2}, i=(1,), j=1e3)",
      ),
    ).toEqual({
      name: 'f',
      positional: [],
      keywords: {
        a: 'x',
        b: 'y',
        c: -2.5,
        d: true,
        e: null,
        f: false,
        g: [1, 'two'],
        h: { k: 2 },
        i: [1],
        j: 1000,
      },
    });
  });

  it('reads positional arguments before keyword ones, and no arguments', () => {
    expect(parsePythonCall("sort('final_report.pdf')")).toEqual({
      name: 'sort',
      positional: ['final_report.pdf'],
      keywords: {},
    });
    expect(parsePythonCall('mean([37])').positional).toEqual([[37]]);
    expect(parsePythonCall('ls()')).toEqual({ name: 'ls', positional: [], keywords: {} });
    expect(parsePythonCall("post_tweet('hi', tags = ['#a'])")).toEqual({
      name: 'post_tweet',
      positional: ['hi'],
      keywords: { tags: ['#a'] },
    });
  });

  it('reads escapes as Python does, an unknown one kept with its backslash', () => {
    expect(parsePythonCall("echo(content='a\\nb \\'q\\' \\\\ \\d')").keywords.content).toBe(
      "a\nb 'q' \\ \\d",
    );
    expect(parsePythonCall('echo(content="it\'s, (really) = fine")').keywords.content).toBe(
      "it's, (really) = fine",
    );
  });

  it('refuses what is not a call of literals, saying where', () => {
    expect(() => parsePythonCall('f(x=y)')).toThrow('y is not a literal');
    expect(() => parsePythonCall("f(a=1, 'b')")).toThrow('a positional argument after a keyword one');
    expect(() => parsePythonCall("f(a='x)")).toThrow('an unterminated string');
    expect(() => parsePythonCall('f(a=1) g')).toThrow('text after the call');
    expect(() => parsePythonCall('f(a=1, a=2)')).toThrow('the keyword a twice');
  });

  it('keeps a __proto__ key as data', () => {
    const call = parsePythonCall("f(u={'__proto__': 1})");
    expect(Object.keys(call.keywords.u as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(call.keywords.u)).toBe(Object.prototype);
  });
});
