import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { runChain, runLoop, runOneCall } from './quickstart.js';

describe('the README quickstart', () => {
  it('runs the chain and reports events', async () => {
    const events: ToolEvent[] = [];
    const result = await runChain((event) => events.push(event));
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', content: '{"celsius":21,"city":"Rome"}' });
    expect(events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end']);
  });

  it('runs one call with no history', async () => {
    expect(await runOneCall()).toMatchObject({
      type: 'answered',
      isError: false,
      content: '{"celsius":21,"city":"Rome"}',
      value: { city: 'Rome', celsius: 21 },
    });
  });

  it('runs the loop to a final answer', async () => {
    expect(await runLoop()).toBe('It is 21 °C in Rome.');
  });
});
