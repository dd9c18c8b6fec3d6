import { describe, expect, it } from 'vitest';
import {
  callsOf,
  scriptedModel,
  textOf,
  toolsOffered,
} from '../src/adapters/ai-sdk/__fixtures__/guard-tools-model.js';
import { answer } from './guard-tools.js';

describe('the README guardTools example', () => {
  it('stops a model that repeats a search, and still gives its text answer', async () => {
    const model = scriptedModel((options, index) =>
      toolsOffered(options)
        ? callsOf({ id: `c${index}`, name: 'searchOrders', input: { email: 'bob@example.com' } })
        : textOf('Bob has no orders.'),
    );
    const result = await answer(model, 'Does Bob have orders?', 'conv-1');
    expect(result).toMatchObject({
      text: 'Bob has no orders.',
      steps: 4,
      loop: { detector: 'exact-repeat' },
    });
  });
});
