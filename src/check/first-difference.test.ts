import { describe, expect, it } from 'vitest';
import { firstDifference } from './first-difference.js';

describe('firstDifference', () => {
  it.each([
    ['equal primitives', 1, 1],
    ['NaN and NaN', Number.NaN, Number.NaN],
    ['0 and -0', 0, -0],
    ['equal nested data', { a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }] }],
    ['a key holding undefined and a missing key', { a: 1, b: undefined }, { a: 1 }],
    ['equal dates', new Date(5), new Date(5)],
    ['equal maps', new Map([['k', { v: 1 }]]), new Map([['k', { v: 1 }]])],
    ['equal sets', new Set([1, 2]), new Set([1, 2])],
  ])('%s are equal', (_, actual, expected) => {
    expect(firstDifference(actual, expected)).toBeUndefined();
  });

  it.each([
    ['different primitives', 1, 2, ''],
    ['string and number', '1', 1, ''],
    ['null and object', null, {}, ''],
    ['array and object', [], {}, ''],
    ['arrays of different length', [1, 2], [1], ''],
    ['a nested value', { a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] }, '/a/1/b'],
    ['a missing key', { a: 1 }, { a: 1, b: 2 }, '/b'],
    ['an extra key', { a: 1, z: 0 }, { a: 1 }, '/z'],
    ['different dates', new Date(5), new Date(6), ''],
    ['a date and its ISO string', new Date(0), new Date(0).toISOString(), ''],
    ['map values', new Map([['k', 1]]), new Map([['k', 2]]), '/0/1'],
    ['set order', new Set([1, 2]), new Set([2, 1]), '/0'],
    ['an escaped key', { 'a/b': 1 }, { 'a/b': 2 }, '/a~1b'],
  ])('%s differ at %j', (_, actual, expected, path) => {
    expect(firstDifference(actual, expected)?.path).toBe(path);
  });

  it('reports the values found at the difference', () => {
    expect(firstDifference({ s: 'PAID' }, { s: 'SUCCESS' })).toEqual({
      path: '/s',
      actual: 'PAID',
      expected: 'SUCCESS',
    });
  });

  it('terminates on cyclic values', () => {
    const a: Record<string, unknown> = { n: 1 };
    a.self = a;
    const b: Record<string, unknown> = { n: 1 };
    b.self = b;
    expect(firstDifference(a, b)).toBeUndefined();
    const c: Record<string, unknown> = { n: 2 };
    c.self = c;
    expect(firstDifference(a, c)?.path).toBe('/n');
  });
});
