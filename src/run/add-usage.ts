import type { LoopUsage } from '../core/loop-outcome.js';
import type { TokenUsage } from '../core/model.js';

/** Usage totals, kept finite: absurd token counts saturate at `Number.MAX_SAFE_INTEGER`. */
export function addUsage(usage: LoopUsage, added: TokenUsage): LoopUsage {
  const inputTokens = Math.min(Number.MAX_SAFE_INTEGER, usage.inputTokens + added.inputTokens);
  const outputTokens = Math.min(Number.MAX_SAFE_INTEGER, usage.outputTokens + added.outputTokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: Math.min(Number.MAX_SAFE_INTEGER, inputTokens + outputTokens),
  };
}
