import { describe, expect, it } from 'vitest';
import { normalizeResponse } from './normalize-response.js';

describe('normalizeResponse', () => {
  it('keeps a good answer as it is, with its usage', () => {
    const outcome = normalizeResponse(
      { message: { role: 'assistant', content: 'hi' }, usage: { inputTokens: 3, outputTokens: 2 } },
      1,
    );
    expect(outcome).toEqual({
      ok: true,
      message: { role: 'assistant', content: 'hi' },
      usage: { inputTokens: 3, outputTokens: 2 },
    });
  });

  it('replaces empty and duplicate call ids so every call can get exactly one response', () => {
    const outcome = normalizeResponse(
      {
        message: {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: '', name: 'a', arguments: '{}' },
            { id: 'x', name: 'b', arguments: '{}' },
            { id: 'x', name: 'c', arguments: '{}' },
          ],
        },
      },
      4,
    );
    expect(outcome.ok && outcome.message.toolCalls?.map((c) => c.id)).toEqual(['tw_4_1', 'x', 'tw_4_3']);
  });

  it.each([
    ['nothing', undefined],
    ['no message', {}],
    ['neither text nor calls', { message: { role: 'assistant', content: '  ' } }],
    ['calls that are not an array', { message: { role: 'assistant', content: '', toolCalls: 'x' } }],
  ])('reports %s as a problem', (_name, response) => {
    expect(normalizeResponse(response, 1)).toMatchObject({ ok: false });
  });

  it('coerces hostile fields and ignores bad usage', () => {
    const outcome = normalizeResponse(
      {
        message: { role: 'assistant', content: 5, toolCalls: [null, { name: 7, arguments: { a: 1 } }] },
        usage: { inputTokens: -1, outputTokens: Number.NaN },
      },
      2,
    );
    expect(outcome).toMatchObject({
      ok: true,
      message: {
        content: '',
        toolCalls: [
          { id: 'tw_2_1', name: '', arguments: '{}' },
          { id: 'tw_2_2', name: '7', arguments: '{"a":1}' },
        ],
      },
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });
});
