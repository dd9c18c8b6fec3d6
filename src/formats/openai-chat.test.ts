import { describe, expect, it } from 'vitest';
import type { Model } from '../core/model.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { historyProblems } from '../testing/history-problems.js';
import { defineTool } from '../tools/define-tool.js';
import { fromOpenAiChatCompletion } from './from-openai-chat-completion.js';
import type { OpenAiChatCompletion, OpenAiChatMessage } from './openai-chat.js';
import { toOpenAiChatMessages } from './to-openai-chat-messages.js';
import { toOpenAiTool } from './to-openai-tool.js';
import { ToolFormatError } from './tool-format-error.js';

const weather = defineTool({
  name: 'getWeather',
  description: 'The weather in a city.',
  effect: 'read',
  input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }: { city: string }) => ({ city, sky: 'sunny' }),
});

/** Completions as OpenAI documents them (platform.openai.com/docs/api-reference/chat/object). */
const CALLS: OpenAiChatCompletion = {
  choices: [
    {
      message: {
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'getWeather', arguments: '{"city": "Paris"}' },
          },
          { id: 'call_2', type: 'function', function: { name: 'getWeather', arguments: '{"city": "Par' } },
        ],
      },
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 30, completion_tokens: 12 },
};
const ANSWER: OpenAiChatCompletion = {
  choices: [{ message: { content: 'Sunny in Paris.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 60, completion_tokens: 5 },
};

describe('the chat completions mapper pair', () => {
  it('is a model adapter in ten lines: the loop runs over it, the history is the one the API wants', async () => {
    const sent: OpenAiChatMessage[][] = [];
    const completions = [CALLS, ANSWER];
    // What a user writes around the official SDK's client.chat.completions.create.
    const model: Model = {
      async generate({ messages, tools }) {
        const body = {
          model: 'gpt-x',
          messages: toOpenAiChatMessages(messages),
          tools: tools.map((tool) => toOpenAiTool(tool)),
        };
        sent.push(body.messages);
        return fromOpenAiChatCompletion(completions.shift() as OpenAiChatCompletion);
      },
    };
    const outcome = await runToolLoop({
      model,
      tools: [weather],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(outcome).toMatchObject({
      type: 'completed',
      text: 'Sunny in Paris.',
      usage: { inputTokens: 90, outputTokens: 17 },
    });
    expect(historyProblems(outcome.messages)).toEqual([]);
    expect(sent[1]).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'getWeather', arguments: '{"city": "Paris"}' },
          },
          // The raw text, cut as the model sent it: toolwarden answered it, the API gets it back as it was.
          { id: 'call_2', type: 'function', function: { name: 'getWeather', arguments: '{"city": "Par' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Paris","sky":"sunny"}' },
      { role: 'tool', tool_call_id: 'call_2', content: expect.stringContaining('INVALID_JSON') },
    ]);
  });

  it('sends a runtime note as a second text part of the tool message', () => {
    const [tool] = toOpenAiChatMessages([
      { role: 'tool', toolCallId: 'c', name: 't', content: '{"a":1}', isError: false, note: 'already asked' },
    ]);
    expect(tool).toEqual({
      role: 'tool',
      tool_call_id: 'c',
      content: [
        { type: 'text', text: '{"a":1}' },
        { type: 'text', text: 'already asked' },
      ],
    });
  });

  it('reads a refusal as the text, skips calls that are not function calls, and tolerates missing usage', () => {
    const response = fromOpenAiChatCompletion({
      choices: [
        {
          message: {
            content: null,
            refusal: 'I cannot help with that.',
            tool_calls: [{ id: 'x', type: 'custom' }],
          },
        },
      ],
    });
    expect(response).toEqual({ message: { role: 'assistant', content: 'I cannot help with that.' } });
  });

  it('keeps fields of the wrong type as empty text for the chain to refuse, never a crash', () => {
    const response = fromOpenAiChatCompletion({
      choices: [
        { message: { tool_calls: [{ id: 7, function: { name: null, arguments: { city: 'Paris' } } }] } },
      ],
      usage: { prompt_tokens: -5, completion_tokens: Number.NaN },
    } as never);
    expect(response.message.toolCalls).toEqual([{ id: '', name: '', arguments: '' }]);
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  it.each([
    ['no choices', { choices: [] }],
    ['choices that are not a list', { choices: 'x' }],
    ['a choice without a message', { choices: [{}] }],
    ['null', null],
  ])('refuses a completion with %s', (_, completion) => {
    expect(() => fromOpenAiChatCompletion(completion as never)).toThrow(ToolFormatError);
  });
});
