// A model adapter over the official `openai` SDK with toolwarden's mapper pair (the README's snippet):
// no AI SDK, the chat completions wire format mapped by pure functions.
import type OpenAI from 'openai';
import { fromOpenAiChatCompletion, toOpenAiChatMessages, toOpenAiTool } from '../src/formats/index.js';
import { defineTool, type Model, type RunOptions, runToolLoop } from '../src/index.js';

export function openAiModel(client: OpenAI, model: string): Model {
  return {
    async generate({ messages, tools, signal }) {
      const completion = await client.chat.completions.create(
        {
          model,
          messages: toOpenAiChatMessages(messages),
          ...(tools.length > 0 ? { tools: tools.map((tool) => toOpenAiTool(tool)) } : {}),
        },
        { signal },
      );
      return fromOpenAiChatCompletion(completion);
    },
  };
}

export const weather = defineTool({
  name: 'weather',
  description: 'The weather in a city.',
  effect: 'read',
  input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }: { city: string }) => ({ city, sky: 'sunny' }),
});

/** Create the client with `maxRetries: 0`: the loop retries the model call (`modelRetries`), once is enough. */
export function askWeather(
  client: OpenAI,
  options: Pick<RunOptions, 'modelRetries' | 'sleep' | 'signal'> = {},
) {
  return runToolLoop({
    model: openAiModel(client, 'gpt-4.1-mini'),
    tools: [weather],
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    ...options,
  });
}
