import type { ModelFinishReason } from '../core/model.js';

const UNIFIED: ReadonlySet<string> = new Set<ModelFinishReason['unified']>([
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
]);

/**
 * A finish reason as a model gives it: `{ unified, raw }` (AI SDK V3, a streamed `finish` part), or a
 * plain string (V2, whose `unknown` becomes `other`). A unified value outside the known set (V4 adds
 * `interrupted`) becomes `other`, with the value kept as `raw` when the provider gave none. Never throws.
 */
export function finishReasonOf(value: unknown): ModelFinishReason {
  if (typeof value === 'string') return { unified: unifiedOf(value), raw: undefined };
  if (typeof value !== 'object' || value === null) return { unified: 'other', raw: undefined };
  const { unified, raw } = value as { unified?: unknown; raw?: unknown };
  const rawText = typeof raw === 'string' ? raw : undefined;
  if (typeof unified !== 'string') return { unified: 'other', raw: rawText };
  const known = unifiedOf(unified);
  return { unified: known, raw: rawText ?? (known === unified ? undefined : unified) };
}

function unifiedOf(value: string): ModelFinishReason['unified'] {
  return UNIFIED.has(value) ? (value as ModelFinishReason['unified']) : 'other';
}
