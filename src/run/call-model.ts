import type { AssistantMessage, Message } from '../core/message.js';
import type { Model, ModelRequest, ModelResponse, TokenUsage } from '../core/model.js';
import type { ModelFailure } from '../core/model-failure.js';
import { collectModelStream, type ModelStreamDelta } from '../model/collect-model-stream.js';
import { raceAbort } from '../util/race-abort.js';
import type { LoopContext } from './loop-context.js';
import { NO_USAGE, normalizeResponse } from './normalize-response.js';
import { type Attempted, type ModelAttempt, retryModelCall } from './retry-model-call.js';

export type ModelAnswer =
  | { readonly type: 'answer'; readonly message: AssistantMessage; readonly usage: TokenUsage }
  /**
   * The model threw (after its retries), was aborted, or answered with something that is not an answer.
   * `failure` says what failed, when the model did (not when the run aborted).
   */
  | {
      readonly type: 'failed';
      readonly error: unknown;
      readonly usage: TokenUsage;
      readonly failure?: ModelFailure;
    }
  /** `wrapModelCall` failed on its own (not by passing on the model's failure). */
  | { readonly type: 'CALLBACK_FAILED'; readonly error: unknown };

/**
 * One model call: through `wrapModelCall` when there is one, each attempt bounded by the model timeout and
 * the run's signal (a model that never settles cannot hang the run), transient failures retried
 * (`retryModelCall`), normalized (`newId` names calls without a usable id).
 */
export async function callModel(
  run: LoopContext,
  input: { readonly messages: readonly Message[]; readonly round: number; readonly tools: boolean },
  newId: () => string,
): Promise<ModelAnswer> {
  const { signal } = run.budget;
  const request: ModelRequest = { messages: input.messages, tools: input.tools ? run.specs : [], signal };
  const { model, wrapModelCall } = run.options;
  // One attempt at the model's answer. Called inside a `try` or an async function: a model that throws
  // synchronously is a rejection like any other.
  const attempt: ModelAttempt = (forwarded, reported) => {
    if (usesStream(model, run.streamDeltas)) {
      return collectModelStream((model.stream as NonNullable<Model['stream']>)(forwarded), {
        signal: forwarded.signal,
        ...deltaSink(run, input.round, reported),
      });
    }
    return Promise.resolve((model.generate as NonNullable<Model['generate']>)(forwarded));
  };
  // What the last call through `next` came to (a wrapper may call it more than once, or never).
  let last: Attempted | undefined;
  const next = async (forwarded: ModelRequest): Promise<ModelResponse> => {
    try {
      last = await retryModelCall(run, input.round, forwarded, attempt);
    } catch (error) {
      // `retryModelCall` settles every failure of the model itself; whatever else throws (a caller's `now`)
      // still fails this call, not the run.
      last = { type: 'failed', error, attempts: 1 };
    }
    if (last.type === 'failed') throw last.error;
    return last.response;
  };
  const failed = (error: unknown): ModelAnswer => {
    const failure = last?.type === 'failed' && last.error === error ? last.failure : undefined;
    return { type: 'failed', error, usage: NO_USAGE, ...(failure === undefined ? {} : { failure }) };
  };
  let response: unknown;
  if (wrapModelCall === undefined) {
    try {
      response = await next(request);
    } catch (error) {
      return failed(error);
    }
  } else {
    try {
      response = await raceAbort(
        Promise.resolve().then(() => wrapModelCall({ ...request, round: input.round }, next)),
        signal,
      );
    } catch (error) {
      // The wrapper's own failure is told apart from the model's failure that it passed on.
      const fromModel = last?.type === 'failed' && last.error === error;
      if (!fromModel && !signal.aborted) return { type: 'CALLBACK_FAILED', error };
      return failed(error);
    }
  }
  const normalized = normalizeResponse(response, newId);
  if (!normalized.ok) {
    return {
      type: 'failed',
      error: new Error(normalized.problem),
      usage: normalized.usage,
      failure: { retryable: false, attempts: last?.attempts ?? 1, gaveUp: 'not-retryable' },
    };
  }
  return { type: 'answer', message: normalized.message, usage: normalized.usage };
}

/**
 * Whether the model is called through its stream: when the run reports deltas (`streamDeltas: true`) and
 * the model can stream, or when it cannot generate (`resolveLoopOptions` checked it has one of the two).
 */
function usesStream(model: Model, streamDeltas: boolean): boolean {
  if (typeof model.stream !== 'function') return false;
  return streamDeltas || typeof model.generate !== 'function';
}

/**
 * The run's deltas as events, when it reports them: each waits for the stream's consumer to read what was
 * emitted (`checkpoint`), so the model's stream is read no faster than the consumer reads the run's.
 */
function deltaSink(
  run: LoopContext,
  round: number,
  reported: () => void,
): { readonly onDelta: (delta: ModelStreamDelta) => Promise<void> | undefined } | undefined {
  const { emit, checkpoint } = run;
  if (!run.streamDeltas || emit === undefined) return undefined;
  return {
    onDelta: (delta) => {
      reported();
      switch (delta.type) {
        case 'text-delta':
          emit({ type: 'model-text-delta', round, delta: delta.delta });
          break;
        case 'tool-input-delta': {
          const { index, toolCallId, toolName } = delta;
          emit({ type: 'model-tool-input-delta', round, index, toolCallId, toolName, delta: delta.delta });
          break;
        }
        default: {
          const unreachable: never = delta;
          throw new TypeError(`unknown delta ${String(unreachable)}`);
        }
      }
      return checkpoint?.();
    },
  };
}
