import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/message.js';
import { toAiSdkPrompt } from './to-ai-sdk-prompt.js';

const LIMITS = { maxBytes: 1024 * 1024, maxDepth: 64 };

describe('toAiSdkPrompt', () => {
  it('maps every role, tool calls with parsed input, consecutive tool results in one tool message', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Oslo?' },
      {
        role: 'assistant',
        content: 'Looking.',
        toolCalls: [
          { id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
          { id: 'c2', name: 'weather', arguments: '{"city": "Os' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'weather', content: '{"sky":"sunny"}', isError: false },
      {
        role: 'tool',
        toolCallId: 'c2',
        name: 'weather',
        content: 'INVALID_JSON: The arguments are not valid JSON.',
        isError: true,
        errorCode: 'INVALID_JSON',
      },
    ];
    expect(toAiSdkPrompt(messages, LIMITS)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Oslo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'weather',
            output: { type: 'text', value: '{"sky":"sunny"}' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'weather',
            output: { type: 'error-text', value: 'INVALID_JSON: The arguments are not valid JSON.' },
          },
        ],
      },
    ]);
  });

  it('leaves out an empty assistant text, keeps an empty user text, and puts the guard note after the result', () => {
    const prompt = toAiSdkPrompt(
      [
        { role: 'user', content: '' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'a', arguments: '' }] },
        { role: 'tool', toolCallId: 'c1', name: 'a', content: '[]', isError: false, note: 'Repeated.' },
        { role: 'assistant', content: '' },
      ],
      LIMITS,
    );
    expect(prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: '' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'a', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'a',
            output: { type: 'text', value: '[]\n\nRepeated.' },
          },
        ],
      },
      { role: 'assistant', content: [] },
    ]);
  });

  it('passes a result with lone surrogates through unchanged (JSON on the wire escapes them)', () => {
    const content = `broken \ud800 pair \udc00 end`;
    const [, tool] = toAiSdkPrompt(
      [
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'a', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'a', content, isError: false },
      ],
      LIMITS,
    );
    expect(tool).toMatchObject({ content: [{ output: { type: 'text', value: content } }] });
    expect(JSON.stringify(tool)).toContain('\\ud800');
  });

  it('sends huge arguments over the limit as {}, and does not copy them', () => {
    const huge = JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) });
    const [assistant] = toAiSdkPrompt(
      [{ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'a', arguments: huge }] }],
      LIMITS,
    );
    expect(assistant).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'a', input: {} }],
    });
  });

  it('refuses a message of an unknown role', () => {
    expect(() => toAiSdkPrompt([{ role: 'developer', content: 'x' } as unknown as Message], LIMITS)).toThrow(
      'unknown message role developer',
    );
  });
});
