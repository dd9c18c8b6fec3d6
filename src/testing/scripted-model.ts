import type { AssistantMessage } from '../core/message.js';
import type {
  GeneratingModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  StreamingModel,
  TokenUsage,
} from '../core/model.js';
import { collectModelStream } from '../model/collect-model-stream.js';
import { streamOf } from './stream-of.js';

/**
 * A scripted answer given as stream parts (see `streamOf`), as they are, hostile ones included. After
 * them the stream ends (`end`, the default), throws `error` (`throw`), or never yields again, deaf to the
 * signal, until its `return()` is called (`hang`).
 */
export interface StreamStep {
  /** The stream parts, yielded as they are. */
  readonly parts: readonly unknown[];
  /** What the stream does after the parts (default `end`). */
  readonly after?: 'end' | 'throw' | 'hang';
  /** What it throws with `after: 'throw'`. */
  readonly error?: unknown;
}

/** What a step answers: a response, an assistant message, or stream parts. */
export type ScriptAnswer = ModelResponse | AssistantMessage | StreamStep;

/** One scripted answer: a response, an assistant message, stream parts, or a function of the request and its index. */
export type ScriptStep =
  | ScriptAnswer
  | ((request: ModelRequest, index: number) => ScriptAnswer | Promise<ScriptAnswer>);

/** What a `ScriptedModel` answers, in order, and how it streams. */
export interface ScriptedModelOptions {
  /** Answers in order; or one function answering every request. */
  readonly script:
    | readonly ScriptStep[]
    | ((request: ModelRequest, index: number) => ScriptAnswer | Promise<ScriptAnswer>);
  /** Usage reported for a step that gives none (default 10 input, 5 output tokens). */
  readonly defaultUsage?: TokenUsage;
  /** Characters per fragment when `stream` streams a response or a message step (default 4). */
  readonly chunkSize?: number;
}

const DEFAULT_USAGE: TokenUsage = { inputTokens: 10, outputTokens: 5 };
const DONE: IteratorResult<unknown> = Object.freeze({ done: true, value: undefined });

/**
 * A model that replays a script and records every request: the test double for the model port, in both
 * forms. `generate` answers a stream step by collecting it; `stream` streams a response or a message in
 * fragments of `chunkSize`. Past the end of a list it throws, so a test never loops on a silent default.
 */
export class ScriptedModel implements GeneratingModel, StreamingModel {
  /** Every request received, in order. */
  readonly requests: ModelRequest[] = [];
  /** Parts handed out by `stream`, over all calls. */
  partsRead = 0;
  /** Streams whose `return()` was called before they ended. */
  streamsClosed = 0;
  readonly #script: ScriptedModelOptions['script'];
  readonly #usage: TokenUsage;
  readonly #chunkSize: number;

  constructor({ script, defaultUsage = DEFAULT_USAGE, chunkSize = 4 }: ScriptedModelOptions) {
    this.#script = script;
    this.#usage = defaultUsage;
    this.#chunkSize = chunkSize;
  }

  /** The next scripted answer, whole (stream parts collected). */
  async generate(request: ModelRequest): Promise<ModelResponse> {
    const answer = await this.#answer(this.#record(request), request);
    if (!('parts' in answer)) return answer;
    return collectModelStream(
      this.#iterate(async () => answer),
      { signal: request.signal },
    );
  }

  /** The next scripted answer as stream parts, in fragments of `chunkSize`. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    const index = this.#record(request);
    const iterator = this.#iterate(async () => {
      const answer = await this.#answer(index, request);
      if ('parts' in answer) return answer;
      return { parts: streamOf(answer, { chunkSize: this.#chunkSize }) };
    });
    return { [Symbol.asyncIterator]: () => iterator as AsyncIterator<ModelStreamPart> };
  }

  /** How many times the model was called. */
  get callCount(): number {
    return this.requests.length;
  }

  #record(request: ModelRequest): number {
    const index = this.requests.length;
    this.requests.push({ ...request, messages: [...request.messages] });
    return index;
  }

  async #answer(index: number, request: ModelRequest): Promise<ModelResponse | StreamStep> {
    const script = this.#script;
    let step: ScriptStep | undefined;
    if (typeof script === 'function') step = script;
    else {
      step = script[index];
      if (step === undefined)
        throw new Error(
          `ScriptedModel: the script has ${script.length} steps; step ${index + 1} was requested`,
        );
    }
    const answer = typeof step === 'function' ? await step(request, index) : step;
    if ('parts' in answer) return answer;
    return 'role' in answer ? { message: answer, usage: this.#usage } : { usage: this.#usage, ...answer };
  }

  /** A hand-written iterator (not a generator), so that `return()` acts at once even while `next()` hangs. */
  #iterate(load: () => Promise<StreamStep>): AsyncIterator<unknown> {
    let step: StreamStep | undefined;
    let at = 0;
    let closed = false;
    return {
      next: async () => {
        if (closed) return DONE;
        step ??= await load();
        if (closed) return DONE;
        if (at < step.parts.length) {
          this.partsRead++;
          return { done: false, value: step.parts[at++] };
        }
        const after = step.after ?? 'end';
        switch (after) {
          case 'end':
            closed = true;
            return DONE;
          case 'throw':
            closed = true;
            throw step.error ?? new Error('ScriptedModel: the stream broke off');
          case 'hang':
            return new Promise<IteratorResult<unknown>>(() => {});
          default: {
            const unreachable: never = after;
            throw new TypeError(`unknown stream end ${String(unreachable)}`);
          }
        }
      },
      return: async () => {
        if (!closed) this.streamsClosed++;
        closed = true;
        return DONE;
      },
    };
  }
}
