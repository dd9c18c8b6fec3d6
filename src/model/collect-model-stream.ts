import { ModelStreamError, type StreamBreak } from '../core/errors/model-stream-error.js';
import type { ModelResponse } from '../core/model.js';
import { raceAbort } from '../util/race-abort.js';
import { type AssembledPart, createStreamAssembly } from './stream-assembly.js';

/** A delta of a streamed answer, as it comes. */
export type ModelStreamDelta = Extract<AssembledPart, { type: 'text-delta' | 'tool-input-delta' }>;

/** `collectModelStream`'s options: a signal, and a listener for the deltas as they arrive. */
export interface CollectStreamOptions {
  /** Ends the read, even of a stream that never yields again. */
  readonly signal?: AbortSignal;
  /** Each delta as it comes; when it returns a promise, the next part is read once it settles (backpressure). */
  readonly onDelta?: (delta: ModelStreamDelta) => void | Promise<void>;
}

/**
 * Reads a model's stream (`Model.stream`) to its `finish` and returns the answer in the form `generate`
 * gives it (see `createStreamAssembly` for how parts are joined). Parts after `finish` are not read. A
 * stream that throws, sends an `error` part, ends without `finish`, is not an async iterable, or is
 * aborted by `signal` rejects with `ModelStreamError`, which keeps what had arrived. The stream's
 * `return()` is called whenever reading stops before the stream ended by itself (not awaited: a stream
 * that hangs cannot hold the caller).
 */
export async function collectModelStream(
  stream: unknown,
  options: CollectStreamOptions = {},
): Promise<ModelResponse> {
  const { signal, onDelta } = options;
  const assembly = createStreamAssembly();
  const broken = (reason: StreamBreak, cause?: unknown) =>
    new ModelStreamError({ reason, partial: assembly.partial(), cause });
  let iterator: AsyncIterator<unknown>;
  try {
    iterator = (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    if (typeof iterator?.next !== 'function') throw new TypeError('the iterator has no next method');
  } catch (error) {
    throw broken('not-a-stream', error);
  }
  let ended = false;
  try {
    for (;;) {
      if (signal?.aborted) throw broken('aborted', signal.reason);
      let done: unknown;
      let value: unknown;
      try {
        const next = Promise.resolve(iterator.next());
        const result = await (signal === undefined ? next : raceAbort(next, signal));
        done = result.done;
        value = result.value;
      } catch (error) {
        if (signal?.aborted) throw broken('aborted', signal.reason);
        ended = true;
        throw broken('threw', error);
      }
      if (done === true) {
        ended = true;
        throw broken('no-finish');
      }
      const part = assembly.add(value);
      switch (part.type) {
        case 'finish':
          return assembly.response();
        case 'error':
          throw broken('error-part', part.error);
        case 'text-delta':
        case 'tool-input-delta': {
          const waited = onDelta?.(part);
          if (waited !== undefined) await waited;
          break;
        }
        case 'ignored':
          break;
        default: {
          const unreachable: never = part;
          throw new TypeError(`unknown assembled part ${String(unreachable)}`);
        }
      }
    }
  } finally {
    if (!ended) closeStream(iterator);
  }
}

/** Tells the stream to stop; what its `return()` does or throws is its own business. */
function closeStream(iterator: AsyncIterator<unknown>): void {
  try {
    const closing = iterator.return?.();
    if (closing !== undefined) Promise.resolve(closing).catch(() => {});
  } catch {
    // A stream whose return() throws has stopped as far as we are concerned.
  }
}
