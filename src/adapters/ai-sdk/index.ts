// toolwarden/ai-sdk: the Vercel AI SDK (ai@6, LanguageModelV3) as toolwarden's model, and AI SDK tools
// guarded in place. The AI SDK packages are optional peer dependencies.
export {
  type AiSdkCallSettings,
  type FromAiSdkModelOptions,
  fromAiSdkModel,
} from './from-ai-sdk-model.js';
export { type GuardedTools, guardTools } from './guard-tools.js';
export { GuardedToolError, type GuardedToolErrorCode } from './guard-tools-error.js';
export type { GuardPrepareStep, GuardStopCondition } from './guard-tools-loop.js';
export type { GuardedToolOptions, GuardToolsOptions, GuardToolsPolicy } from './guard-tools-options.js';
