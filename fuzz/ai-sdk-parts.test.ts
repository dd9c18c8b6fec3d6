import { describe, expect, it } from 'vitest';
import { markersOf, materializeAnswer } from './ai-sdk-parts.js';
import type { AnswerPart } from './hostile-ai-sdk.js';

/** The AI SDK target's oracle knows which calls are the provider's: checked, so the fuzz cannot go blind. */
const call = (more: Partial<Extract<AnswerPart, { kind: 'call' }>>): AnswerPart => ({
  kind: 'call',
  id: 'c1',
  name: 'echo',
  input: 'json',
  style: 'deltas',
  chunks: 2,
  provider: undefined,
  resultFirst: false,
  ...more,
});

describe('materializeAnswer', () => {
  it('gives one answer both forms, and knows a call is the provider’s by the parts each form sends', () => {
    const answer = materializeAnswer({
      kind: 'paired',
      loop: 'none',
      answer: [
        call({ provider: { generate: ['result'], stream: ['delta'] } }),
        call({ id: 'c2', style: 'whole', provider: { generate: ['call'], stream: ['start'] } }),
        call({ id: 'c3' }),
      ],
    });
    expect(answer.generate.value).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"n":0}' },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'echo', result: { ok: true } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'echo', input: '{"n":1}', providerExecuted: true },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'echo', input: '{"n":2}' },
    ]);
    expect(answer.stream.value.slice(0, 5)).toEqual([
      { type: 'tool-input-start', id: 'c1', toolName: 'echo' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"n"', providerExecuted: true },
      { type: 'tool-input-delta', id: 'c1', delta: ':0}' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"n":0}' },
    ]);
    // c2 is sent whole: it has no start to carry the flag, so its tool-call does.
    expect(answer.stream.value[5]).toMatchObject({ toolCallId: 'c2', providerExecuted: true });
    for (const form of [answer.generate, answer.stream]) {
      expect([...form.facts.ids].sort()).toEqual(['c1', 'c2']);
      expect([...form.facts.markers].sort()).toEqual([0, 1]);
    }
  });

  it('reads a stream no further than its first finish or error, and finds every marker in arguments', () => {
    const part = (type: string) => ({
      kind: 'part' as const,
      type,
      id: 'c1' as const,
      name: 'echo' as const,
      payload: { kind: 'marker' as const },
      providerExecuted: undefined,
    });
    const answer = materializeAnswer({
      kind: 'separate',
      loop: 'none',
      content: [part('tool-call'), part('tool-input-start'), part('tool-result')],
      stream: [part('tool-call'), part('finish'), part('tool-result')],
      end: 'none',
    });
    expect([...answer.generate.facts.ids]).toEqual(['c1']);
    expect([...answer.generate.facts.markers]).toEqual([0]);
    expect(answer.stream.facts.ids.size).toBe(0);
    expect(markersOf('{"n":3}{"n":12')).toEqual([3, 12]);
  });
});
