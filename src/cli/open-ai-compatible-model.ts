import type { Model } from '../core/model.js';

export interface OpenAiCompatibleModelOptions {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string | undefined;
}

/**
 * The model of `toolwarden run`: any OpenAI-compatible chat completions server (Ollama, vLLM, llama.cpp's
 * server, a hosted API) through the AI SDK's `@ai-sdk/openai-compatible`, an optional peer loaded here
 * only. Rejects with an Error that says what to install when it is missing.
 */
export async function openAiCompatibleModel(options: OpenAiCompatibleModelOptions): Promise<Model> {
  let provider: typeof import('@ai-sdk/openai-compatible');
  try {
    provider = await import('@ai-sdk/openai-compatible');
  } catch (error) {
    throw new Error(
      'toolwarden run talks to the server through the AI SDK: npm install ai@6 @ai-sdk/openai-compatible@2',
      { cause: error },
    );
  }
  const { fromAiSdkModel } = await import('../adapters/ai-sdk/from-ai-sdk-model.js');
  const chat = provider
    .createOpenAICompatible({
      baseURL: options.baseUrl,
      name: 'openai-compatible',
      includeUsage: true,
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    })
    .chatModel(options.model);
  return fromAiSdkModel(chat);
}
