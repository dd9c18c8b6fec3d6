import type { AssistantMessage, Message } from '../messages/message.js';
import { collectModelStream, type ModelStreamDelta } from '../model/collect-model-stream.js';
import type { Model, ModelRequest, ModelResponse, TokenUsage } from '../model/model.js';
import { raceAbort } from './budget-signal.js';
import { NO_USAGE, normalizeResponse } from './normalize-response.js';
import type { RunContext } from './run-context.js';

export type ModelAnswer =
  | { readonly type: 'answer'; readonly message: AssistantMessage; readonly usage: TokenUsage }
  /** The model threw, was aborted, or answered with something that is not an answer. */
  | { readonly type: 'failed'; readonly error: unknown; readonly usage: TokenUsage }
  /** `wrapModelCall` failed on its own (not by passing on the model's failure). */
  | { readonly type: 'callback-failed'; readonly error: unknown };

/**
 * One model call: through `wrapModelCall` when there is one, raced against the run's signal (a model
 * that never settles cannot hang the run), normalized (`newId` names calls without a usable id).
 */
export async function callModel(
  run: RunContext,
  input: { readonly messages: readonly Message[]; readonly round: number; readonly tools: boolean },
  newId: () => string,
): Promise<ModelAnswer> {
  const { signal } = run.budget;
  const request: ModelRequest = { messages: input.messages, tools: input.tools ? run.specs : [], signal };
  const { model, wrapModelCall } = run.options;
  // The model's answer, raced against the run's signal only when something can abort it (a race costs a
  // promise and a listener). Called inside a `try` or an async function: a model that throws synchronously
  // is a rejection like any other.
  const generate = (forwarded: ModelRequest): Promise<ModelResponse> => {
    if (usesStream(model, run.streamDeltas)) {
      return collectModelStream((model.stream as NonNullable<Model['stream']>)(forwarded), {
        ...(run.budget.canAbort ? { signal } : {}),
        ...deltaSink(run, input.round),
      });
    }
    const answer = (model.generate as NonNullable<Model['generate']>)(forwarded);
    return run.budget.canAbort ? raceAbort(Promise.resolve(answer), signal) : answer;
  };
  let response: unknown;
  if (wrapModelCall === undefined) {
    try {
      response = await generate(request);
    } catch (error) {
      return { type: 'failed', error, usage: NO_USAGE };
    }
  } else {
    // The wrapper's own failure is told apart from the model's failure that it passed on.
    let modelError: { readonly error: unknown } | undefined;
    const next = async (forwarded: ModelRequest) => {
      try {
        return await generate(forwarded);
      } catch (error) {
        modelError = { error };
        throw error;
      }
    };
    try {
      response = await raceAbort(
        Promise.resolve().then(() => wrapModelCall({ ...request, round: input.round }, next)),
        signal,
      );
    } catch (error) {
      const fromModel = modelError !== undefined && modelError.error === error;
      if (!fromModel && !signal.aborted) return { type: 'callback-failed', error };
      return { type: 'failed', error, usage: NO_USAGE };
    }
  }
  const normalized = normalizeResponse(response, newId);
  if (!normalized.ok)
    return { type: 'failed', error: new Error(normalized.problem), usage: normalized.usage };
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
  run: RunContext,
  round: number,
): { readonly onDelta: (delta: ModelStreamDelta) => Promise<void> | undefined } | undefined {
  const { emit, checkpoint } = run;
  if (!run.streamDeltas || emit === undefined) return undefined;
  return {
    onDelta: (delta) => {
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
