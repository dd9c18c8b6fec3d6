import type { LanguageModelV2, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ModelStreamError } from '../../core/errors/model-stream-error.js';
import { collectModelStream } from '../../model/collect-model-stream.js';
import { fromAiSdkModel } from './from-ai-sdk-model.js';
import { fromAiSdkStream } from './from-ai-sdk-stream.js';

const USAGE = {
  inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
};
const FINISH: LanguageModelV3StreamPart = {
  type: 'finish',
  usage: USAGE,
  finishReason: { unified: 'stop', raw: 'stop' },
};

/** A stream that sends `parts`, then hangs unless `end`; it records each pull and its cancel. */
function source(parts: readonly unknown[], end = false) {
  const seen = { pulls: 0, cancelled: 0 };
  let at = 0;
  const stream = new ReadableStream<unknown>(
    {
      pull(controller) {
        seen.pulls++;
        if (at < parts.length) controller.enqueue(parts[at++]);
        else if (end) controller.close();
        // Else: never enqueues again, a provider that hangs.
      },
      cancel() {
        seen.cancelled++;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

const request = (signal = new AbortController().signal) => ({ messages: [], tools: [], signal });

describe('fromAiSdkStream', () => {
  it('maps a MockLanguageModelV3 stream, and cancels it once finish is read', async () => {
    const { stream, seen } = source([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'Sunny' },
      { type: 'text-delta', id: '0', delta: ' in Paris.' },
      { type: 'text-end', id: '0' },
      FINISH,
      { type: 'text-delta', id: '0', delta: ' never read' },
    ]);
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: stream as ReadableStream<LanguageModelV3StreamPart> }),
    });
    const model = fromAiSdkModel(mock, { callSettings: { temperature: 0 } });
    const response = await collectModelStream(model.stream(request()));
    expect(response).toEqual({
      message: { role: 'assistant', content: 'Sunny in Paris.' },
      usage: { inputTokens: 5, outputTokens: 3 },
      finishReason: { unified: 'stop', raw: 'stop' },
    });
    expect(seen.cancelled).toBe(1);
    expect(mock.doStreamCalls[0]).toMatchObject({ prompt: [], temperature: 0 });
  });

  it('streams a V2 model: its flat usage, its string finish reason, a call in fragments', async () => {
    const { stream } = source([
      { type: 'stream-start', warnings: [] },
      { type: 'tool-input-start', id: 'c1', toolName: 'weather' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"city":' },
      { type: 'tool-input-delta', id: 'c1', delta: '"Paris"}' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Paris"}' },
      {
        type: 'finish',
        usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10 },
        finishReason: 'tool-calls',
      },
    ]);
    const v2 = {
      specificationVersion: 'v2',
      provider: 'fake',
      modelId: 'v2',
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error('not used')),
      doStream: async () => ({ stream }),
    } as unknown as LanguageModelV2;
    const response = await collectModelStream(fromAiSdkModel(v2).stream(request()));
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }],
      },
      usage: { inputTokens: 4, outputTokens: 6 },
      finishReason: { unified: 'tool-calls', raw: undefined },
    });
  });

  it('cancels a hung stream at once when the reader returns (a pending read ends)', async () => {
    const { stream, seen } = source([{ type: 'text-delta', id: '0', delta: 'a' }]);
    const iterator = fromAiSdkStream(async () => ({ stream }), new AbortController().signal)[
      Symbol.asyncIterator
    ]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'text-delta', delta: 'a' } });
    const pending = iterator.next();
    await iterator.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(seen.cancelled).toBe(1);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('cancels a hung stream when the signal aborts, and the collector reports the abort', async () => {
    const { stream, seen } = source([{ type: 'text-delta', id: '0', delta: 'a' }]);
    const controller = new AbortController();
    const reading = collectModelStream(
      fromAiSdkStream(async () => ({ stream }), controller.signal),
      {
        signal: controller.signal,
        onDelta: () => controller.abort(new Error('user left')),
      },
    );
    const error = await reading.catch((e: unknown) => e);
    expect(ModelStreamError.isInstance(error) && error.reason).toBe('aborted');
    expect(seen.cancelled).toBe(1);
  });

  it('cancels a stream that arrives after the reader left, and never calls doStream when already aborted', async () => {
    const { stream, seen } = source([]);
    let arrive: (value: { stream: ReadableStream<unknown> }) => void = () => {};
    const iterator = fromAiSdkStream(
      () => new Promise((resolve) => (arrive = resolve)),
      new AbortController().signal,
    )[Symbol.asyncIterator]();
    const pending = iterator.next();
    await iterator.return?.();
    arrive({ stream });
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(seen.cancelled).toBe(1);

    let started = 0;
    const aborted = AbortSignal.abort(new Error('gone'));
    const never = fromAiSdkStream(async () => {
      started++;
      return { stream };
    }, aborted)[Symbol.asyncIterator]();
    await expect(never.next()).rejects.toThrow('gone');
    expect(started).toBe(0);
  });

  it('a stream that ends without finish, a doStream that rejects or returns no stream: the stream broke off', async () => {
    const ended = source([{ type: 'text-delta', id: '0', delta: 'a' }], true);
    const cases = [
      [async () => ({ stream: ended.stream }), 'no-finish'],
      [() => Promise.reject(new Error('429')), 'threw'],
      [async () => ({ stream: 'not a stream' }), 'threw'],
      [async () => undefined, 'threw'],
    ] as const;
    for (const [start, reason] of cases) {
      const stream = fromAiSdkStream(start as never, new AbortController().signal);
      const error = await collectModelStream(stream).catch((e: unknown) => e);
      expect(ModelStreamError.isInstance(error) && error.reason).toBe(reason);
    }
    expect(ended.seen.cancelled).toBe(0);
  });
});
