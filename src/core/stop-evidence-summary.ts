import type { StopEvidence } from './loop-outcome.js';
import type { ModelFailure } from './model-failure.js';
import { errorType } from './tool-event.js';

/**
 * A stop's evidence without its content, safe to log: a stop condition's `detail` is left out and an
 * error is named by its type only (its message may hold anything).
 */
export type StopEvidenceSummary =
  | Exclude<StopEvidence, { readonly kind: 'condition' } | { readonly kind: 'error' }>
  | { readonly kind: 'condition'; readonly name: string }
  | {
      readonly kind: 'error';
      readonly errorType: string;
      readonly callback?: string;
      /** A failed model call's status, redacted error name and attempts (no content). */
      readonly model?: ModelFailure;
    };

export function stopEvidenceSummary(evidence: StopEvidence): StopEvidenceSummary {
  switch (evidence.kind) {
    case 'loop':
    case 'ceiling':
    case 'limit':
      return evidence;
    case 'condition':
      return { kind: 'condition', name: evidence.name };
    case 'error':
      return {
        kind: 'error',
        errorType: errorType(evidence.error),
        ...(evidence.callback === undefined ? {} : { callback: evidence.callback }),
        ...(evidence.model === undefined ? {} : { model: evidence.model }),
      };
    default: {
      const unreachable: never = evidence;
      throw new TypeError(`unknown evidence ${String(unreachable)}`);
    }
  }
}
