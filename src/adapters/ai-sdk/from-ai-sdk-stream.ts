import type { ModelStreamPart } from '../../core/model.js';
import { fromStreamPart } from './from-stream-part.js';

/** What `doStream` resolves to, as far as it is read here. */
interface StreamResult {
  readonly stream: ReadableStream<unknown>;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The parts of one `doStream` call as toolwarden's stream (see `fromStreamPart`). `doStream` is
 * called at the first `next()`. The provider's `ReadableStream` is cancelled as soon as toolwarden stops
 * reading: `return()` (the loop read `finish`, broke off, or its consumer left the `for await`) or the
 * request's signal aborting. The iterator is written by hand, not as a generator: a generator's `return()`
 * waits for the read in progress, which a stream that hangs never ends.
 */
export function fromAiSdkStream(
  start: () => PromiseLike<StreamResult>,
  signal: AbortSignal,
): AsyncIterable<ModelStreamPart> {
  return {
    [Symbol.asyncIterator]() {
      let reader: ReadableStreamDefaultReader<unknown> | undefined;
      let opening: Promise<ReadableStreamDefaultReader<unknown>> | undefined;
      let closed = false;
      const cancel = (open: ReadableStreamDefaultReader<unknown>) => {
        // Cancelling resolves a pending read as done; what the provider's cancel does is its own business.
        open.cancel().catch(() => {});
      };
      const close = () => {
        if (closed) return;
        closed = true;
        signal.removeEventListener('abort', close);
        if (reader !== undefined) cancel(reader);
        else void opening?.then(cancel, () => {});
      };
      const open = async (): Promise<ReadableStreamDefaultReader<unknown>> => {
        const result = await start();
        const stream = (result as Partial<StreamResult> | undefined)?.stream;
        if (typeof stream?.getReader !== 'function')
          throw new TypeError('doStream did not return a ReadableStream');
        return stream.getReader();
      };
      return {
        async next(): Promise<IteratorResult<ModelStreamPart, undefined>> {
          try {
            return await read();
          } catch (error) {
            // doStream rejected (a 429, an abort) or the stream failed: nothing is left to cancel.
            closed = true;
            signal.removeEventListener('abort', close);
            throw error;
          }
        },
        async return(): Promise<IteratorResult<ModelStreamPart, undefined>> {
          close();
          return DONE;
        },
      };
      async function read(): Promise<IteratorResult<ModelStreamPart, undefined>> {
        if (closed) return DONE;
        if (reader === undefined) {
          if (opening === undefined) {
            if (signal.aborted) throw signal.reason;
            signal.addEventListener('abort', close, { once: true });
            opening = open();
          }
          reader = await opening;
          if (closed) {
            cancel(reader);
            return DONE;
          }
        }
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            closed = true;
            signal.removeEventListener('abort', close);
            return DONE;
          }
          const part = fromStreamPart(value);
          if (part !== undefined) return { done: false, value: part };
        }
      }
    },
  };
}
