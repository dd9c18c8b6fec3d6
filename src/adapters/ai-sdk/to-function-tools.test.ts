import { describe, expect, it } from 'vitest';
import { toFunctionTools } from './to-function-tools.js';

describe('toFunctionTools', () => {
  it('makes function tools, with an object schema for a tool that has none', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;
    expect(
      toFunctionTools([
        { name: 'weather', description: 'Weather.', inputSchema: schema },
        { name: 'now', description: 'The time.', inputSchema: undefined },
      ]),
    ).toEqual([
      { type: 'function', name: 'weather', description: 'Weather.', inputSchema: schema },
      {
        type: 'function',
        name: 'now',
        description: 'The time.',
        inputSchema: { type: 'object', properties: {} },
      },
    ]);
  });

  it('is undefined without tools, so the request carries none', () => {
    expect(toFunctionTools([])).toBeUndefined();
  });
});
