import { describe, expect, it } from 'vitest';
import { fromContent } from './from-content.js';

describe('fromContent', () => {
  it('joins the text and keeps the raw argument text of each call', () => {
    const raw = '{"city":  "Paris" , "n": 1.0}';
    expect(
      fromContent([
        { type: 'text', text: 'Looking ' },
        { type: 'reasoning', text: 'hmm' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: raw },
        { type: 'text', text: 'it up.' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: '{"city": "Par' },
      ]),
    ).toEqual({
      role: 'assistant',
      content: 'Looking it up.',
      toolCalls: [
        { id: 'c1', name: 'weather', arguments: raw },
        { id: 'c2', name: 'weather', arguments: '{"city": "Par' },
      ],
    });
  });

  it('skips calls the provider ran itself, their results, approval requests, sources and unknown parts', () => {
    expect(
      fromContent([
        { type: 'tool-call', toolCallId: 's1', toolName: 'web_search', input: '{}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 's1', toolName: 'web_search', result: [] },
        { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 's1' },
        { type: 'source', sourceType: 'url', id: 'x', url: 'https://example.com' },
        { type: 'hologram', payload: 1 },
        { type: 'text', text: 'Found it.' },
      ]),
    ).toEqual({ role: 'assistant', content: 'Found it.' });
  });

  it('skips every call of an id the provider runs, whichever part says so and comes first', () => {
    expect(
      fromContent([
        { type: 'tool-call', toolCallId: 's1', toolName: 'web_search', input: '{}' },
        { type: 'tool-result', toolCallId: 's1', toolName: 'web_search', result: [] },
        { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 's2' },
        { type: 'tool-call', toolCallId: 's2', toolName: 'mcp', input: '{}' },
        { type: 'tool-call', toolCallId: 's3', toolName: 'code', input: '{}' },
        { type: 'tool-call', toolCallId: 's3', toolName: 'code', input: '{}', providerExecuted: true },
        { type: 'tool-call', toolCallId: 'mine', toolName: 'echo', input: '{}' },
      ]),
    ).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'mine', name: 'echo', arguments: '{}' }],
    });
  });

  it('skips a part it cannot read and keeps the rest of the answer', () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    const content = new Proxy(
      [
        { type: 'text', text: 'Kept' },
        { type: 'text', text: 'lost' },
        trap,
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: { not: 'text' } },
        { type: 'tool-input-start', id: 'c2', toolName: 'echo', providerExecuted: true },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'echo', input: '{}' },
        { type: 'text-delta', delta: ' (not a content part)' },
        { type: 'text', text: '.' },
      ],
      {
        get(target, key, receiver) {
          if (key === '1') throw new Error('index trap');
          return Reflect.get(target, key, receiver);
        },
      },
    );
    expect(fromContent(content)).toEqual({
      role: 'assistant',
      content: 'Kept.',
      toolCalls: [{ id: 'c2', name: 'echo', arguments: '{}' }],
    });
    const noLength = new Proxy([], {
      get(target, key, receiver) {
        if (key === 'length') throw new Error('length trap');
        return Reflect.get(target, key, receiver);
      },
    });
    expect(fromContent(noLength)).toEqual({ role: 'assistant', content: '' });
  });

  it('keeps huge argument text as it is', () => {
    const huge = `{"blob":"${'x'.repeat(3_000_000)}"}`;
    const message = fromContent([{ type: 'tool-call', toolCallId: 'c1', toolName: 'a', input: huge }]);
    expect(message.toolCalls?.[0]?.arguments).toBe(huge);
  });

  it.each([
    ['no content', undefined],
    ['an object', { type: 'text', text: 'x' }],
    ['empty', []],
    ['junk parts', [null, 7, 'text', { type: 'text', text: 7 }]],
  ])('reads %s as an empty answer (the loop reports it as MODEL_ERROR)', (_name, content) => {
    expect(fromContent(content)).toEqual({ role: 'assistant', content: '' });
  });

  it('leaves ids and names that are not text to the loop to repair', () => {
    expect(fromContent([{ type: 'tool-call', toolCallId: 5, toolName: null, input: '{}' }])).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: '', name: '', arguments: '{}' }],
    });
  });
});
