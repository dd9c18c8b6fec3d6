import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelStreamError } from '../core/errors/model-stream-error.js';
import {
  type CollectStreamOptions,
  collectModelStream,
  type ModelStreamDelta,
} from './collect-model-stream.js';

/** The items as a stream, as they are (an async generator would await a thenable item, and trip a trap). */
function parts(...items: unknown[]): AsyncIterable<unknown> {
  let at = 0;
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () =>
        at < items.length ? { done: false, value: items[at++] } : { done: true, value: undefined },
    }),
  };
}

const FINISH = { type: 'finish', usage: { inputTokens: 3, outputTokens: 2 } };

async function collect(stream: unknown, options?: CollectStreamOptions) {
  const deltas: ModelStreamDelta[] = [];
  const response = await collectModelStream(stream, { onDelta: (d) => void deltas.push(d), ...options });
  return { response, deltas };
}

async function brokenBy(stream: unknown, options?: CollectStreamOptions): Promise<ModelStreamError> {
  const error = await collectModelStream(stream, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ModelStreamError.isInstance(error))
    throw new Error(`expected a ModelStreamError, got ${String(error)}`);
  return error;
}

describe('collectModelStream', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('joins text and each call’s deltas, calls in order of first appearance, the tool-call part winning', async () => {
    const { response, deltas } = await collect(
      parts(
        { type: 'text-delta', delta: 'Hel' },
        { type: 'tool-input-start', toolCallId: 'b', toolName: 'second' },
        { type: 'tool-input-start', toolCallId: 'a', toolName: 'first' },
        { type: 'tool-input-delta', toolCallId: 'a', delta: '{"x":' },
        { type: 'text-delta', delta: 'lo' },
        { type: 'tool-input-delta', toolCallId: 'b', delta: '{"y":2}' },
        { type: 'tool-input-delta', toolCallId: 'a', delta: '1}' },
        { type: 'tool-call', toolCallId: 'b', toolName: 'second', arguments: '{"y":3}' },
        { type: 'tool-call', toolCallId: 'a', toolName: 'first' },
        FINISH,
      ),
    );
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: 'Hello',
        toolCalls: [
          { id: 'b', name: 'second', arguments: '{"y":3}' },
          { id: 'a', name: 'first', arguments: '{"x":1}' },
        ],
      },
      usage: { inputTokens: 3, outputTokens: 2 },
    });
    expect(
      deltas.map((d) => (d.type === 'text-delta' ? d.delta : `${d.index}:${d.toolName}:${d.delta}`)),
    ).toEqual(['Hel', '1:first:{"x":', 'lo', '0:second:{"y":2}', '1:first:1}']);
  });

  it('a delta for an id never started opens the call; a later tool-call names it', async () => {
    const { response, deltas } = await collect(
      parts(
        { type: 'tool-input-delta', toolCallId: 'x', delta: '{}' },
        { type: 'tool-input-delta', toolCallId: 'y', delta: '{"n":1}' },
        { type: 'tool-call', toolCallId: 'x', toolName: 'named' },
        FINISH,
      ),
    );
    expect(response.message.toolCalls).toEqual([
      { id: 'x', name: 'named', arguments: '{}' },
      { id: 'y', name: '', arguments: '{"n":1}' },
    ]);
    expect(deltas[0]).toEqual({
      type: 'tool-input-delta',
      index: 0,
      toolCallId: 'x',
      toolName: '',
      delta: '{}',
    });
  });

  it('a tool-call without a start is a whole call, reported as one delta; one without an id is a call of its own', async () => {
    const { response, deltas } = await collect(
      parts(
        { type: 'tool-call', toolCallId: 'w', toolName: 'whole', arguments: '{"a":1}' },
        { type: 'tool-call', toolCallId: 7, toolName: 'noid', arguments: '{}' },
        FINISH,
      ),
    );
    expect(response.message.toolCalls).toEqual([
      { id: 'w', name: 'whole', arguments: '{"a":1}' },
      { id: '', name: 'noid', arguments: '{}' },
    ]);
    expect(deltas.map((d) => d.type === 'tool-input-delta' && d.delta)).toEqual(['{"a":1}', '{}']);
  });

  it('keeps every call of an id a provider-tool-call part names out of the answer, whichever came first', async () => {
    const { response, deltas } = await collect(
      parts(
        { type: 'tool-input-start', toolCallId: 'p', toolName: 'web_search' },
        { type: 'tool-input-delta', toolCallId: 'p', delta: '{"q":' },
        { type: 'provider-tool-call', toolCallId: 'p' },
        { type: 'tool-input-delta', toolCallId: 'p', delta: '"x"}' },
        { type: 'tool-call', toolCallId: 'p', toolName: 'web_search', arguments: '{"q":"x"}' },
        { type: 'provider-tool-call', toolCallId: 'q' },
        { type: 'tool-call', toolCallId: 'q', toolName: 'code', arguments: '{}' },
        { type: 'tool-call', toolCallId: 'mine', toolName: 'echo', arguments: '{}' },
        { type: 'provider-tool-call', toolCallId: '' },
        { type: 'tool-call', toolCallId: '', toolName: 'noid', arguments: '{}' },
        FINISH,
      ),
    );
    expect(response.message.toolCalls).toEqual([
      { id: 'mine', name: 'echo', arguments: '{}' },
      { id: '', name: 'noid', arguments: '{}' },
    ]);
    // The delta before the mark was reported (a part cannot be taken back); none after it.
    expect(deltas.map((d) => d.type === 'tool-input-delta' && `${d.toolCallId}:${d.delta}`)).toEqual([
      'p:{"q":',
      'mine:{}',
      ':{}',
    ]);
  });

  it('a start or tool-call of an id whose call is complete is another call; a late delta is ignored', async () => {
    const { response } = await collect(
      parts(
        { type: 'tool-call', toolCallId: 'c', toolName: 'a', arguments: '{"n":1}' },
        { type: 'tool-input-delta', toolCallId: 'c', delta: 'late' },
        { type: 'tool-input-start', toolCallId: 'c', toolName: 'b' },
        { type: 'tool-input-delta', toolCallId: 'c', delta: '{"n":2}' },
        { type: 'tool-call', toolCallId: 'c', toolName: 'b' },
        { type: 'tool-call', toolCallId: 'c', toolName: 'c', arguments: '{"n":3}' },
        FINISH,
      ),
    );
    expect(response.message.toolCalls).toEqual([
      { id: 'c', name: 'a', arguments: '{"n":1}' },
      { id: 'c', name: 'b', arguments: '{"n":2}' },
      { id: 'c', name: 'c', arguments: '{"n":3}' },
    ]);
  });

  it('carries the finish part’s reason ({ unified, raw } or the word alone) and metadata into the response', async () => {
    const usage = { inputTokens: 1, outputTokens: 1 };
    const { response } = await collect(
      parts({
        type: 'finish',
        usage,
        finishReason: { unified: 'length', raw: 'max_tokens' },
        providerMetadata: { fake: { id: 'r1' } },
      }),
    );
    expect(response).toEqual({
      message: { role: 'assistant', content: '' },
      usage,
      finishReason: { unified: 'length', raw: 'max_tokens' },
      providerMetadata: { fake: { id: 'r1' } },
    });
    const words = await collect(parts({ type: 'finish', finishReason: 'tool-calls' }));
    expect(words.response.finishReason).toEqual({ unified: 'tool-calls', raw: undefined });
    const odd = await collect(parts({ type: 'finish', finishReason: 42, providerMetadata: 'x' }));
    expect(odd.response).toEqual({
      message: { role: 'assistant', content: '' },
      finishReason: { unified: 'other', raw: undefined },
    });
  });

  it('reads nothing after the first finish, and closes the stream', async () => {
    let returned = 0;
    let pulled = 0;
    const items = [
      { type: 'text-delta', delta: 'a' },
      FINISH,
      { type: 'text-delta', delta: 'b' },
      { type: 'finish' },
    ];
    const stream = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: pulled >= items.length, value: items[pulled++] }),
        return: async () => {
          returned++;
          return { done: true, value: undefined };
        },
      }),
    };
    const { response } = await collect(stream);
    expect(response.message.content).toBe('a');
    expect(response.usage).toEqual(FINISH.usage);
    expect(pulled).toBe(2);
    expect(returned).toBe(1);
  });

  it('ignores parts of unknown type, with fields of the wrong type, or that cannot be read', async () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    const { response, deltas } = await collect(
      parts(
        { type: 'reasoning-delta', delta: 'thinking' },
        null,
        42,
        trap,
        { type: 'text-delta', delta: 5 },
        { type: 'tool-input-delta', toolCallId: {}, delta: 'x' },
        { type: 'text-delta', delta: 'ok' },
        FINISH,
      ),
    );
    expect(response.message).toEqual({ role: 'assistant', content: 'ok' });
    expect(deltas).toHaveLength(1);
  });

  it('assembles 100,000 one-character deltas', async () => {
    const args = `{"s":"${'x'.repeat(100_000 - 8)}"}`;
    async function* tiny() {
      yield { type: 'tool-input-start', toolCallId: 'c', toolName: 't' };
      for (const char of args) yield { type: 'tool-input-delta', toolCallId: 'c', delta: char };
      yield FINISH;
    }
    const { response, deltas } = await collect(tiny());
    expect(response.message.toolCalls?.[0]?.arguments).toBe(args);
    expect(deltas).toHaveLength(args.length);
  });

  it('a stream that throws midway rejects with ModelStreamError, keeping what arrived', async () => {
    const cause = new Error('socket hang up');
    async function* throwing() {
      yield { type: 'text-delta', delta: 'Par' };
      yield { type: 'tool-input-start', toolCallId: 'c', toolName: 'book' };
      yield { type: 'tool-input-delta', toolCallId: 'c', delta: '{"seat":' };
      throw cause;
    }
    const error = await brokenBy(throwing());
    expect(error.reason).toBe('threw');
    expect(error.cause).toBe(cause);
    expect(error.code).toBe('MODEL_ERROR');
    expect(error.partial).toEqual({
      text: 'Par',
      toolCalls: [{ id: 'c', name: 'book', arguments: '{"seat":' }],
      parts: 3,
    });
    expect(error.message).not.toContain('Par');
  });

  it('a stream that ends without finish, or sends an error part, broke off', async () => {
    expect((await brokenBy(parts({ type: 'text-delta', delta: 'a' }))).reason).toBe('no-finish');
    const failure = new Error('overloaded');
    const error = await brokenBy(
      parts({ type: 'text-delta', delta: 'a' }, { type: 'error', error: failure }, FINISH),
    );
    expect(error.reason).toBe('error-part');
    expect(error.cause).toBe(failure);
  });

  it('what is not an async iterable is not a stream', async () => {
    for (const value of [undefined, null, 42, {}, [FINISH], { [Symbol.asyncIterator]: () => ({}) }])
      expect((await brokenBy(value)).reason).toBe('not-a-stream');
  });

  it('a stream that never ends is ended by the signal, and told to stop', async () => {
    vi.useFakeTimers();
    let returned = 0;
    const hanging = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<unknown>>(() => {}),
        return: async () => {
          returned++;
          return { done: true, value: undefined };
        },
      }),
    };
    const controller = new AbortController();
    const reason = new Error('stop');
    const broken = brokenBy(hanging, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 5);
    await vi.advanceTimersByTimeAsync(5);
    const error = await broken;
    expect(error.reason).toBe('aborted');
    expect(error.cause).toBe(reason);
    expect(returned).toBe(1);
  });

  it('waits for a delta sink that returns a promise before it reads on', async () => {
    let pulled = 0;
    async function* counted() {
      for (const delta of ['a', 'b', 'c']) {
        pulled++;
        yield { type: 'text-delta', delta };
      }
      yield FINISH;
    }
    const seen: string[] = [];
    await collectModelStream(counted(), {
      onDelta: async (delta) => {
        // Settles a macrotask later: a reader that did not wait for the sink would have pulled on by then.
        await new Promise((resolve) => setImmediate(resolve));
        if (delta.type === 'text-delta') seen.push(`${delta.delta}@${pulled}`);
      },
    });
    expect(seen).toEqual(['a@1', 'b@2', 'c@3']);
  });
});
