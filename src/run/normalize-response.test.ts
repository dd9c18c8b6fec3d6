import { describe, expect, it } from 'vitest';
import { normalizeResponse } from './normalize-response.js';

/** Generated ids, as the run makes them (a counter); here with a readable prefix. */
const ids = (prefix: string) => {
  let n = 0;
  return () => `${prefix}${++n}`;
};

describe('normalizeResponse', () => {
  it('keeps a good answer as it is, with its usage', () => {
    const outcome = normalizeResponse(
      { message: { role: 'assistant', content: 'hi' }, usage: { inputTokens: 3, outputTokens: 2 } },
      ids('tw_1_'),
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
      ids('tw_4_'),
    );
    expect(outcome.ok && outcome.message.toolCalls?.map((c) => c.id)).toEqual(['tw_4_1', 'x', 'tw_4_2']);
  });

  it("copies well-formed calls: their id, name and arguments only, the model's objects untouched", () => {
    const call = { id: 'c1', name: 'search', arguments: '{"q":"x"}', type: 'function' };
    const response = { message: { role: 'assistant', content: '', toolCalls: [call] } };
    const outcome = normalizeResponse(response, ids('tw_1_'));
    expect(outcome.ok && outcome.message.toolCalls).toEqual([
      { id: 'c1', name: 'search', arguments: '{"q":"x"}' },
    ]);
    expect(outcome.ok && outcome.message.toolCalls?.[0]).not.toBe(call);
    expect(call).toEqual({ id: 'c1', name: 'search', arguments: '{"q":"x"}', type: 'function' });
  });

  it.each([4, 16, 40])('keeps %i unique ids as they are, and repairs a duplicate among them', (count) => {
    const calls = Array.from({ length: count }, (_, i) => ({ id: `id${i}`, name: 't', arguments: '{}' }));
    const kept = normalizeResponse(
      { message: { role: 'assistant', content: '', toolCalls: calls } },
      ids('tw_2_'),
    );
    expect(kept.ok && kept.message.toolCalls?.map((c) => c.id)).toEqual(calls.map((c) => c.id));
    const twice = [...calls, { id: 'id0', name: 't', arguments: 5 }];
    const repaired = normalizeResponse(
      { message: { role: 'assistant', content: '', toolCalls: twice } },
      ids('tw_2_'),
    );
    expect(repaired.ok && repaired.message.toolCalls?.at(-1)).toEqual({
      id: 'tw_2_1',
      name: 't',
      arguments: '5',
    });
    expect(repaired.ok && repaired.message.toolCalls?.slice(0, count)).toEqual(calls);
  });

  it.each([
    ['nothing', undefined],
    ['no message', {}],
    ['neither text nor calls', { message: { role: 'assistant', content: '  ' } }],
    ['calls that are not an array', { message: { role: 'assistant', content: '', toolCalls: 'x' } }],
  ])('reports %s as a problem', (_name, response) => {
    expect(normalizeResponse(response, ids('tw_1_'))).toMatchObject({ ok: false });
  });

  it('coerces hostile fields and ignores bad usage', () => {
    const outcome = normalizeResponse(
      {
        message: { role: 'assistant', content: 5, toolCalls: [null, { name: 7, arguments: { a: 1 } }] },
        usage: { inputTokens: -1, outputTokens: Number.NaN },
      },
      ids('tw_2_'),
    );
    expect(outcome).toMatchObject({
      ok: true,
      message: {
        content: '',
        toolCalls: [
          { id: 'tw_2_1', name: '', arguments: '' },
          { id: 'tw_2_2', name: '7', arguments: '{"a":1}' },
        ],
      },
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it('never throws: a Proxy whose traps throw, as the response, the message or the calls, is a problem', () => {
    const hostile = new Proxy([], {
      get() {
        throw new Error('trap');
      },
      getPrototypeOf() {
        throw new Error('trap');
      },
    });
    for (const response of [
      hostile,
      { message: hostile },
      { message: { role: 'assistant', content: '', toolCalls: hostile } },
    ]) {
      expect(normalizeResponse(response, ids('x'))).toMatchObject({ ok: false });
    }
  });
});
