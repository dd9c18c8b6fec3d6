import type { StopEvidence } from './loop-outcome.js';
import type { StopEvidenceSummary } from './run-event.js';
import { errorType } from './tool-event.js';

/** A stop's evidence without its content, as `run-end` and the audit record carry it. */
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
