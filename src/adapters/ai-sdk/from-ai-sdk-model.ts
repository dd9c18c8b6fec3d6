import type { Model } from '../../model/model.js';

// Placeholder until the adapter lands (helper branch ai-model).
export function fromAiSdkModel(_model: unknown): Model {
  throw new Error('not yet');
}
