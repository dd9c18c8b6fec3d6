import type { AssistantMessage } from '../messages/message.js';
import type { Model, ModelRequest, ModelResponse, TokenUsage } from '../model/model.js';

/** One scripted answer: a response, an assistant message, or a function of the request and its index. */
export type ScriptStep =
  | ModelResponse
  | AssistantMessage
  | ((
      request: ModelRequest,
      index: number,
    ) => ModelResponse | AssistantMessage | Promise<ModelResponse | AssistantMessage>);

export interface ScriptedModelOptions {
  /** Answers in order; or one function answering every request. */
  readonly script:
    | readonly ScriptStep[]
    | ((
        request: ModelRequest,
        index: number,
      ) => ModelResponse | AssistantMessage | Promise<ModelResponse | AssistantMessage>);
  /** Usage reported for a step that gives none (default 10 input, 5 output tokens). */
  readonly defaultUsage?: TokenUsage;
}

const DEFAULT_USAGE: TokenUsage = { inputTokens: 10, outputTokens: 5 };

/**
 * A model that replays a script and records every request: the test double for the model port.
 * Past the end of a list it throws, so a test never loops on a silent default.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #script: ScriptedModelOptions['script'];
  readonly #usage: TokenUsage;

  constructor({ script, defaultUsage = DEFAULT_USAGE }: ScriptedModelOptions) {
    this.#script = script;
    this.#usage = defaultUsage;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const index = this.requests.length;
    this.requests.push({ ...request, messages: [...request.messages] });
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
    return 'role' in answer ? { message: answer, usage: this.#usage } : { usage: this.#usage, ...answer };
  }

  /** How many times the model was called. */
  get callCount(): number {
    return this.requests.length;
  }
}
