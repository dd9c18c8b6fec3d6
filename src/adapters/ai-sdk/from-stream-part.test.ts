import { describe, expect, it } from 'vitest';
import { fromStreamPart } from './from-stream-part.js';

const V3_USAGE = {
  inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: undefined },
  outputTokens: { total: 4, text: 4, reasoning: 0 },
};

const mapAll = (parts: readonly unknown[]) => parts.map((part) => fromStreamPart(part));

describe('fromStreamPart', () => {
  it('maps a V3 stream of text and a call, leaving out the parts with no counterpart', () => {
    expect(
      mapAll([
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'r1', modelId: 'm' },
        { type: 'text-start', id: 't0' },
        { type: 'text-delta', id: 't0', delta: 'Look' },
        { type: 'text-end', id: 't0' },
        { type: 'reasoning-start', id: 'r0' },
        { type: 'reasoning-delta', id: 'r0', delta: 'hmm' },
        { type: 'reasoning-end', id: 'r0' },
        { type: 'tool-input-start', id: 'call_1', toolName: 'weather' },
        { type: 'tool-input-delta', id: 'call_1', delta: '{"city": "Par' },
        { type: 'tool-input-end', id: 'call_1' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: '{"city": "Paris"}' },
        { type: 'raw', rawValue: { choices: [] } },
        {
          type: 'finish',
          usage: V3_USAGE,
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          providerMetadata: { fake: { x: 1 } },
        },
      ]).filter((part) => part !== undefined),
    ).toEqual([
      { type: 'text-delta', delta: 'Look' },
      { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'weather' },
      { type: 'tool-input-delta', toolCallId: 'call_1', delta: '{"city": "Par' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', arguments: '{"city": "Paris"}' },
      {
        type: 'finish',
        usage: { inputTokens: 7, outputTokens: 4 },
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        providerMetadata: { fake: { x: 1 } },
      },
    ]);
  });

  it('keeps the input as the raw text it is, even when it is not JSON', () => {
    const [call] = mapAll([{ type: 'tool-call', toolCallId: 'c', toolName: 'w', input: '{"city": "Par' }]);
    expect(call).toEqual({ type: 'tool-call', toolCallId: 'c', toolName: 'w', arguments: '{"city": "Par' });
  });

  it('marks as the provider’s each part that says so: providerExecuted, a result, an approval request', () => {
    const provider = (toolCallId: string) => ({ type: 'provider-tool-call', toolCallId });
    expect(
      mapAll([
        { type: 'tool-input-start', id: 'ws_1', toolName: 'web_search', providerExecuted: true },
        { type: 'tool-input-delta', id: 'ws_1', delta: '{"q":"x"}' },
        { type: 'tool-input-delta', id: 'ws_3', delta: '{}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: {} },
        { type: 'tool-approval-request', approvalId: 'a', toolCallId: 'mcp_1' },
        {
          type: 'tool-call',
          toolCallId: 'ws_2',
          toolName: 'code',
          input: { not: 'text' },
          providerExecuted: true,
        },
        { type: 'tool-call', toolCallId: 'mine', toolName: 'weather', input: '{}', providerExecuted: false },
        { type: 'tool-result', toolCallId: 7, result: {} },
      ]),
    ).toEqual([
      provider('ws_1'),
      // The assembly leaves it out: it knows ws_1 is the provider's.
      { type: 'tool-input-delta', toolCallId: 'ws_1', delta: '{"q":"x"}' },
      provider('ws_3'),
      provider('ws_1'),
      provider('mcp_1'),
      provider('ws_2'),
      { type: 'tool-call', toolCallId: 'mine', toolName: 'weather', arguments: '{}' },
      undefined,
    ]);
  });

  it('passes an error part on as the failure it is', () => {
    const error = new Error('overloaded');
    expect(mapAll([{ type: 'error', error }])).toEqual([{ type: 'error', error }]);
  });

  it('reads V2 parts: the flat usage and the finish reason as a string', () => {
    expect(
      mapAll([
        { type: 'text-delta', id: '0', delta: 'Hi' },
        {
          type: 'finish',
          usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
          finishReason: 'unknown',
        },
      ]),
    ).toEqual([
      { type: 'text-delta', delta: 'Hi' },
      {
        type: 'finish',
        usage: { inputTokens: 3, outputTokens: 2 },
        finishReason: { unified: 'other', raw: undefined },
      },
    ]);
  });

  it('leaves out hostile and unknown parts, without throwing', () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    const getter = {
      type: 'text-delta',
      get delta(): string {
        throw new Error('getter');
      },
    };
    expect(
      mapAll([
        null,
        undefined,
        'text-delta',
        42,
        [],
        trap,
        getter,
        { type: 'text-delta', delta: 7 },
        { type: 'text-delta' },
        { type: 'tool-input-start', id: 5, toolName: 'w' },
        { type: 'tool-input-delta', id: 'c', delta: { x: 1 } },
        { type: 'tool-call', toolCallId: 'c', toolName: 'w', input: { city: 'Paris' } },
        { type: 'tool-call', toolCallId: 'c', toolName: 'w' },
        { type: 'source', sourceType: 'url', url: 'https://example.com' },
        { type: 'file', mediaType: 'image/png', data: '' },
        { type: 'interrupted-v9' },
        { type: '__proto__' },
      ]),
    ).toEqual(Array.from({ length: 17 }, () => undefined));
  });

  it('keeps a call whose id or name is not text for the loop to judge (an id of its own, an unknown tool)', () => {
    const [call] = mapAll([{ type: 'tool-call', toolCallId: 9, toolName: null, input: '{}' }]);
    expect(call).toEqual({ type: 'tool-call', toolCallId: 9, toolName: '', arguments: '{}' });
    const [start] = mapAll([{ type: 'tool-input-start', id: 'c', toolName: 3 }]);
    expect(start).toEqual({ type: 'tool-input-start', toolCallId: 'c', toolName: '' });
  });

  it('reads a finish without usage or reason as zero tokens and other', () => {
    expect(mapAll([{ type: 'finish' }])).toEqual([
      {
        type: 'finish',
        usage: { inputTokens: 0, outputTokens: 0 },
        finishReason: { unified: 'other', raw: undefined },
      },
    ]);
  });
});
