import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV3,
  LanguageModelV3CallOptions,
} from '@ai-sdk/provider';
import type { ParseArgumentsLimits } from '../../chain/parse-arguments.js';
import { DEFAULT_MAX_ARGUMENT_BYTES, DEFAULT_MAX_ARGUMENT_DEPTH } from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import type {
  GeneratingModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  StreamingModel,
} from '../../core/model.js';
import { checkNumberOption } from '../../options/check-option.js';
import { fromAiSdkStream } from './from-ai-sdk-stream.js';
import { fromContent } from './from-content.js';
import { fromFinishReason } from './from-finish-reason.js';
import { fromUsage } from './from-usage.js';
import { toAiSdkPrompt } from './to-ai-sdk-prompt.js';
import { toFunctionTools } from './to-function-tools.js';

/** The settings of every call (temperature, maxOutputTokens, providerOptions, headers…); the loop owns the rest. */
export type AiSdkCallSettings = Omit<LanguageModelV3CallOptions, 'prompt' | 'tools' | 'abortSignal'>;

/** Options of `fromAiSdkModel`: the settings of every call, and the run's argument limits. */
export interface FromAiSdkModelOptions {
  /** Sent with every call (`{ temperature: 0, maxOutputTokens: 1024 }`). */
  readonly callSettings?: AiSdkCallSettings;
  /**
   * The chain's argument limits, when the run raises them (`maxArgumentBytes`, `maxArgumentDepth`): a
   * replayed call whose arguments break them is sent as `{}`, so keep the two the same (default: the defaults).
   */
  readonly maxArgumentBytes?: number;
  /** See `maxArgumentBytes`. */
  readonly maxArgumentDepth?: number;
}

/**
 * An AI SDK language model (`LanguageModelV3`, as `@ai-sdk/*` providers for `ai@6` make them, or a V2
 * one) as toolwarden's model port, without loading `ai`: one `doGenerate` per `generate`, the run's
 * signal as its `abortSignal`. What `doGenerate` throws (an `APICallError` for a 429 or a 500) is the
 * model's failure. The adapter does not retry (`doGenerate` has no retries: `maxRetries` belongs to
 * `generateText`), so nothing is retried twice: the loop retries a transient failure by the error's
 * `isRetryable`, `statusCode` and `retry-after` headers (`modelRetries`), bounds each attempt
 * (`modelTimeoutMs`), and stops as `MODEL_ERROR` with the history intact when it gives up. `stream` is one
 * `doStream` per call (what the loop uses with `streamDeltas: true`), its parts mapped by
 * `fromStreamPart`; the provider's stream is cancelled when the loop stops reading it. Both read an answer
 * the same way (`fromContent` maps the content parts as the stream's and assembles them alike).
 */
export function fromAiSdkModel(
  model: LanguageModelV3 | LanguageModelV2,
  options: FromAiSdkModelOptions = {},
): GeneratingModel & StreamingModel {
  checkModel(model);
  const limits: ParseArgumentsLimits = {
    maxBytes:
      checkNumberOption(options.maxArgumentBytes, { option: 'maxArgumentBytes', min: 2 }) ??
      DEFAULT_MAX_ARGUMENT_BYTES,
    maxDepth:
      checkNumberOption(options.maxArgumentDepth, { option: 'maxArgumentDepth', min: 1 }) ??
      DEFAULT_MAX_ARGUMENT_DEPTH,
  };
  const settings = options.callSettings ?? {};
  if (typeof settings !== 'object' || settings === null) {
    throw new InvalidOptionsError({ option: 'callSettings', message: 'must be an object of call settings' });
  }
  const callOf = (request: ModelRequest): LanguageModelV3CallOptions => {
    const tools = toFunctionTools(request.tools);
    return {
      ...settings,
      prompt: toAiSdkPrompt(request.messages, limits),
      ...(tools === undefined ? {} : { tools }),
      abortSignal: request.signal,
    };
  };
  return {
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const call = callOf(request);
      // The prompt holds only parts V2 shares with V3 (see `toAiSdkPrompt`).
      const result =
        model.specificationVersion === 'v3'
          ? await model.doGenerate(call)
          : await model.doGenerate(call as unknown as LanguageModelV2CallOptions);
      const metadata: unknown = result.providerMetadata;
      return {
        message: fromContent(result.content),
        usage: fromUsage(result.usage),
        finishReason: fromFinishReason(result.finishReason),
        ...(typeof metadata === 'object' && metadata !== null
          ? { providerMetadata: metadata as Readonly<Record<string, unknown>> }
          : {}),
      };
    },
    stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      return fromAiSdkStream(() => {
        const call = callOf(request);
        if (typeof model.doStream !== 'function') throw new TypeError('the model has no doStream method');
        return model.specificationVersion === 'v3'
          ? model.doStream(call)
          : model.doStream(call as unknown as LanguageModelV2CallOptions);
      }, request.signal);
    },
  };
}

function checkModel(model: unknown): void {
  const version =
    typeof model === 'object' && model !== null
      ? (model as { specificationVersion?: unknown }).specificationVersion
      : undefined;
  if (version !== 'v3' && version !== 'v2') {
    throw new InvalidOptionsError({
      option: 'model',
      message:
        typeof model === 'string'
          ? 'must be a model object from an AI SDK provider (createOpenAICompatible(...).chatModel(id)), not a model id'
          : `must be an AI SDK LanguageModelV3 or V2 (specificationVersion 'v3' or 'v2'), got ${String(version)}`,
    });
  }
  if (typeof (model as { doGenerate?: unknown }).doGenerate !== 'function') {
    throw new InvalidOptionsError({ option: 'model', message: 'must have a doGenerate method' });
  }
}
