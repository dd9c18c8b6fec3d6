import { describe, expect, it } from 'vitest';
import { ToolFormatError } from '../formats/tool-format-error.js';
import { expandBfclAnswer } from './expand-bfcl-answer.js';

describe('expandBfclAnswer', () => {
  it('prefers the first value of each argument and varies one argument at a time', () => {
    expect(expandBfclAnswer({ base: [10], unit: ['units', ''], height: [5, 5.0, 6] })).toEqual([
      { arguments: { base: 10, unit: 'units', height: 5 } },
      { arguments: { base: 10, height: 5 }, varied: { path: '/unit', omitted: true } },
      {
        arguments: { base: 10, unit: 'units', height: 5 },
        varied: { path: '/height', omitted: false, value: 5 },
      },
      {
        arguments: { base: 10, unit: 'units', height: 6 },
        varied: { path: '/height', omitted: false, value: 6 },
      },
    ]);
  });

  it('omits an argument whose first option is "" and one whose list is empty', () => {
    expect(expandBfclAnswer({ a: ['', 1], b: [''], c: [] })).toEqual([
      { arguments: {} },
      { arguments: { a: 1 }, varied: { path: '/a', omitted: false, value: 1 } },
    ]);
  });

  it('reads arrays as whole values and dicts as nested answers, also inside arrays', () => {
    const variants = expandBfclAnswer({
      multiples: [[3, 5]],
      params: [{ limit: [50, 100], schemaFilter: ['public'] }],
      boxes: [[{ x: [60.2, 60], y: [12.3] }]],
    });
    expect(variants[0]?.arguments).toEqual({
      multiples: [3, 5],
      params: { limit: 50, schemaFilter: 'public' },
      boxes: [{ x: 60.2, y: 12.3 }],
    });
    expect(variants.slice(1).map((v) => v.varied?.path)).toEqual(['/params/limit', '/boxes/0/x']);
    expect(variants[2]?.arguments.boxes).toEqual([{ x: 60, y: 12.3 }]);
  });

  it('reads a bare value where a list is expected as the only option', () => {
    expect(expandBfclAnswer({ meta: [{ format: 'epoch_millis' }] })[0]?.arguments).toEqual({
      meta: { format: 'epoch_millis' },
    });
  });

  it.each([
    ['a non-object', 'x', /must be an object of lists, got a string/],
    ['an array', [], /must be an object of lists, got an array/],
    ['a __proto__ key', JSON.parse('{"__proto__": [1]}'), /__proto__/],
    [
      'deep nesting',
      Array.from({ length: 10_000 }).reduce<unknown>((inner) => ({ a: [inner] }), 1),
      /nested deeper than/,
    ],
  ])('refuses %s with a clear error', (_label, answer, message) => {
    expect(() => expandBfclAnswer(answer as never)).toThrow(ToolFormatError);
    expect(() => expandBfclAnswer(answer as never)).toThrow(message);
  });
});
