// toolwarden/ai-sdk: the Vercel AI SDK (ai@6, LanguageModelV3) as toolwarden's model, and AI SDK tools
// guarded in place. The AI SDK packages are optional peer dependencies.
export {
  type AiSdkCallSettings,
  type FromAiSdkModelOptions,
  fromAiSdkModel,
} from './from-ai-sdk-model.js';
