import type { LanguageModelV2, LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import type { ModelRequest } from '../../core/model.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { defineTool } from '../../tools/define-tool.js';
import { fromAiSdkModel } from './from-ai-sdk-model.js';

const REQUEST: ModelRequest = {
  messages: [{ role: 'user', content: 'Hi.' }],
  tools: [],
  signal: new AbortController().signal,
};

/** A V3 model answering `result` and recording its call options. */
function v3Model(doGenerate: (options: LanguageModelV3CallOptions) => unknown): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'm',
    supportedUrls: {},
    doGenerate: doGenerate as LanguageModelV3['doGenerate'],
    doStream: () => Promise.reject(new Error('not streamed')),
  };
}

describe('fromAiSdkModel', () => {
  it('answers with the message, usage, finish reason and provider metadata; sends settings and the signal', async () => {
    const calls: LanguageModelV3CallOptions[] = [];
    const model = fromAiSdkModel(
      v3Model(async (options) => {
        calls.push(options);
        return {
          content: [{ type: 'text', text: 'Hello.' }],
          finishReason: { unified: 'length', raw: 'max_tokens' },
          usage: { inputTokens: { total: 3 }, outputTokens: { total: 2 } },
          providerMetadata: { fake: { cached: true } },
          warnings: [],
        };
      }),
      { callSettings: { temperature: 0, maxOutputTokens: 64 } },
    );
    await expect(model.generate(REQUEST)).resolves.toEqual({
      message: { role: 'assistant', content: 'Hello.' },
      usage: { inputTokens: 3, outputTokens: 2 },
      finishReason: { unified: 'length', raw: 'max_tokens' },
      providerMetadata: { fake: { cached: true } },
    });
    expect(calls[0]).toEqual({
      temperature: 0,
      maxOutputTokens: 64,
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi.' }] }],
      abortSignal: REQUEST.signal,
    });
    expect(calls[0]).not.toHaveProperty('tools');
  });

  it('takes a V2 model: flat usage, a string finish reason', async () => {
    const v2 = {
      specificationVersion: 'v2',
      provider: 'test',
      modelId: 'm',
      supportedUrls: {},
      doGenerate: async () => ({
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'a', input: '{"x":1}' }],
        finishReason: 'tool-calls',
        usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 },
        warnings: [],
      }),
      doStream: () => Promise.reject(new Error('not streamed')),
    } as unknown as LanguageModelV2;
    await expect(fromAiSdkModel(v2).generate(REQUEST)).resolves.toEqual({
      message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'a', arguments: '{"x":1}' }] },
      usage: { inputTokens: 5, outputTokens: 1 },
      finishReason: { unified: 'tool-calls', raw: undefined },
    });
  });

  it.each([
    ['a model id', 'openai/gpt-4o', 'not a model id'],
    ['a V1 model', { specificationVersion: 'v1', doGenerate: () => {} }, 'got v1'],
    ['nothing', undefined, 'got undefined'],
    ['a model without doGenerate', { specificationVersion: 'v3' }, 'doGenerate'],
  ])('refuses %s', (_name, model, message) => {
    expect(() => fromAiSdkModel(model as LanguageModelV3)).toThrow(InvalidOptionsError);
    expect(() => fromAiSdkModel(model as LanguageModelV3)).toThrow(message);
  });

  it('refuses bad options', () => {
    const model = v3Model(async () => ({}));
    expect(() => fromAiSdkModel(model, { maxArgumentBytes: -1 })).toThrow('maxArgumentBytes');
    expect(() => fromAiSdkModel(model, { callSettings: 'hot' as never })).toThrow('callSettings');
  });

  it("lets the loop stop a throwing doGenerate as MODEL_ERROR, with the provider's error as evidence", async () => {
    const failure = Object.assign(new Error('Bad Request'), { statusCode: 400 });
    const model = fromAiSdkModel(v3Model(() => Promise.reject(failure)));
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      effect: 'read',
      execute: (a: unknown) => a,
    });
    const outcome = await runToolLoop({ model, messages: REQUEST.messages, tools: [echo] });
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'MODEL_ERROR',
      evidence: { kind: 'error', error: failure },
      messages: REQUEST.messages,
      roundTrips: 1,
    });
  });
});
