import type { TokenUsage } from '../../core/model.js';

/**
 * The tokens of an AI SDK result: V3 nests them (`inputTokens.total`), V2 has flat numbers. A count the
 * provider did not report (undefined), or one that is not a non-negative finite number, is 0. Never throws.
 */
export function fromUsage(value: unknown): TokenUsage {
  if (typeof value !== 'object' || value === null) return { inputTokens: 0, outputTokens: 0 };
  const { inputTokens, outputTokens } = value as { inputTokens?: unknown; outputTokens?: unknown };
  return { inputTokens: countOf(inputTokens), outputTokens: countOf(outputTokens) };
}

function countOf(value: unknown): number {
  const total = typeof value === 'object' && value !== null ? (value as { total?: unknown }).total : value;
  return typeof total === 'number' && Number.isFinite(total) && total > 0 ? total : 0;
}
