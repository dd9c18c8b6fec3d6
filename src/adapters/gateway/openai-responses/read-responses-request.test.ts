import { describe, expect, it } from 'vitest';
import type { ChainMemory } from '../wire.js';
import { readResponsesRequest } from './read-responses-request.js';

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

const REQUEST = {
  model: 'gpt',
  instructions: 'You are helpful.',
  store: false,
  tools: [{ type: 'function', name: 'getStatus', parameters: { type: 'object' } }],
  input: [
    { role: 'user', content: 'Status of A-1?' },
    { type: 'reasoning', id: 'rs_1', summary: [] },
    { type: 'function_call', call_id: 'c1', name: 'getStatus', arguments: '{"id":"A-1"}' },
    { type: 'function_call', call_id: 'c2', name: 'getOwner', arguments: '{"id":"A-1"}' },
    { type: 'function_call_output', call_id: 'c1', output: '{"state":"PENDING"}' },
    {
      type: 'function_call_output',
      call_id: 'c2',
      output: [{ type: 'input_text', text: `token ${SECRET}` }],
    },
    { type: 'function_call', call_id: 'c3', name: 'getStatus', arguments: '{"id":"A-1"}' },
  ],
};

describe('readResponsesRequest', () => {
  it('rebuilds the turn from the whole history: runs of function_call items as rounds, outputs by call_id', () => {
    const request = readResponsesRequest(REQUEST, { redactResults: true });
    expect(
      request?.turn.rounds.map((round) => round.calls.map((call) => [call.id, call.result?.content])),
    ).toEqual([
      [
        ['c1', '{"state":"PENDING"}'],
        ['c2', 'token [redacted:key]'],
      ],
      [['c3', undefined]],
    ]);
    expect(request?.identity.opening).toBe('You are helpful.\u0000Status of A-1?');
    expect(request?.chain?.previous).toBeUndefined();
    // The provider keeps the answer unless the request says `store: false`: only then is nothing remembered.
    expect(request?.chain?.remember).toBe(false);
    const { store: _store, ...kept } = REQUEST;
    expect(readResponsesRequest(kept, { redactResults: true })?.chain?.remember).toBe(true);
  });

  it('sends no secret, notes after their output, and a developer note with tool_choice none at the end', () => {
    const request = readResponsesRequest(REQUEST, { redactResults: true });
    const body = JSON.parse(request?.body([{ callId: 'c1', text: 'NOTE' }]) ?? 'null');
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(body.input[4].output).toBe('{"state":"PENDING"}\n\nNOTE');
    const off = JSON.parse(request?.toolsOffBody([], 'answer now') ?? 'null');
    expect(off.tool_choice).toBe('none');
    expect(off.input.at(-1)).toEqual({ role: 'developer', content: 'answer now' });
    expect(
      readResponsesRequest({ model: 'm', input: 'hi' }, { redactResults: true })?.body([]),
    ).toBeUndefined();
    expect(readResponsesRequest({ model: 'm' }, { redactResults: true })).toBeUndefined();
  });

  it('with previous_response_id, rebuilds the turn from the memory of the answer it continues', () => {
    const first = readResponsesRequest(
      { ...REQUEST, input: REQUEST.input.slice(0, 6) },
      { redactResults: false },
    );
    const memory = first?.chain?.memory([{ id: 'c3', name: 'getStatus', arguments: '{"id":"A-1"}' }], []);
    const chained = readResponsesRequest(
      {
        model: 'gpt',
        previous_response_id: 'resp_2',
        input: [{ type: 'function_call_output', call_id: 'c3', output: '{"state":"PENDING"}' }],
      },
      { redactResults: false },
    );
    expect(chained?.chain?.previous).toBe('resp_2');
    const read = chained?.chain?.withMemory(memory);
    expect(read?.turn.anchor).toBe(first?.turn.anchor);
    expect(read?.identity).toEqual(first?.identity);
    // The first request sent its rounds itself: the memory kept their calls (for the counts), not their
    // results, and the guard goes on from the session's memory.
    expect(memory?.kept).toBe('calls');
    expect(JSON.stringify(memory)).not.toContain('PENDING');
    expect(read?.turn.resumesGuard).toBe(true);
    expect(
      read?.turn.rounds.map((round) => round.calls.map((call) => [call.id, call.name, call.result?.content])),
    ).toEqual([
      [
        ['c1', 'getStatus', undefined],
        ['c2', 'getOwner', undefined],
      ],
      [['c3', 'getStatus', '{"state":"PENDING"}']],
    ]);
    // What follows a memory of calls only keeps calls only.
    expect(read?.chain?.memory([], []).kept).toBe('calls');
    // Without the memory, only what the request shows, and its turn says so.
    const alone = chained?.chain?.withMemory(undefined);
    expect(alone?.turn.rounds).toEqual([]);
    expect(alone?.turn.anchor).toMatch(/^no-memory:/);
  });

  it('with a conversation the provider keeps: incremental, kept under the conversation, each turn its own', () => {
    const ask = (memory: ChainMemory | undefined) =>
      readResponsesRequest(
        { model: 'gpt', conversation: { id: 'conv_1' }, input: [{ role: 'user', content: 'Again?' }] },
        { redactResults: false },
      )?.chain?.withMemory(memory);
    const first = ask(undefined);
    expect(first?.chain?.conversation).toBe('conv_1');
    expect(first?.chain?.previous).toBeUndefined();
    expect(first?.chain?.remember).toBe(true);
    // A conversation's first turn needs no memory: its anchor is no `no-memory:` one.
    expect(first?.turn.anchor).not.toMatch(/^no-memory:/);
    const asked = [{ id: 'c1', name: 'getStatus', arguments: '{}' }];
    const memory = first?.chain?.memory(asked, []);
    expect(memory?.kept).toBe('results');
    // The same question again is another turn: the conversation's id does not change, its last turn does.
    expect(ask(memory)?.turn.anchor).not.toBe(first?.turn.anchor);
    const output = { type: 'function_call_output', call_id: 'c1', output: 'PENDING' };
    const next = readResponsesRequest(
      { model: 'gpt', conversation: 'conv_1', input: [output] },
      { redactResults: false },
    )?.chain;
    expect(next?.withMemory(memory).turn.anchor).toBe(first?.turn.anchor);
    expect(next?.withMemory(memory).turn.rounds[0]?.calls[0]?.result?.content).toBe('PENDING');
    expect(next?.withMemory(undefined).turn.anchor).toMatch(/^no-memory:/);
    // With `previous_response_id` too (which the API refuses), the answer is what it continues.
    const both = readResponsesRequest(
      { model: 'gpt', conversation: 'conv_1', previous_response_id: 'resp_1', input: [output] },
      { redactResults: false },
    );
    expect([both?.chain?.previous, both?.chain?.conversation]).toEqual(['resp_1', undefined]);
  });

  it('keeps the results of a chain whose rounds came chained, and rebuilds the turn with them', () => {
    const opening = readResponsesRequest(
      { model: 'gpt', input: [{ role: 'user', content: 'Where is A-1?' }] },
      { redactResults: false },
    );
    const asked = [{ id: 'c1', name: 'getStatus', arguments: '{"id":"A-1"}' }];
    const first = opening?.chain?.memory(asked, []);
    expect(first?.kept).toBe('results');
    const output = (id: string) => ({ type: 'function_call_output', call_id: id, output: `{"at":"${id}"}` });
    const second = readResponsesRequest(
      { model: 'gpt', previous_response_id: 'resp_1', input: [output('c1')] },
      { redactResults: false },
    )?.chain?.withMemory(first);
    expect(second?.turn.resumesGuard).toBeUndefined();
    const again = [{ id: 'c2', name: 'getStatus', arguments: '{"id":"A-1"}' }];
    const memory = second?.chain?.memory(again, []);
    expect(memory?.kept).toBe('results');
    const third = readResponsesRequest(
      { model: 'gpt', previous_response_id: 'resp_2', input: [output('c2')] },
      { redactResults: false },
    )?.chain?.withMemory(memory);
    expect(third?.turn.anchor).toBe(opening?.turn.anchor);
    expect(third?.turn.resumesGuard).toBeUndefined();
    expect(third?.turn.rounds.map((round) => round.calls.map((call) => call.result?.content))).toEqual([
      ['{"at":"c1"}'],
      ['{"at":"c2"}'],
    ]);
  });
});
