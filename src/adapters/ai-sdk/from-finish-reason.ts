import type { ModelFinishReason } from '../../core/model.js';
import { finishReasonOf } from '../../model/finish-reason-of.js';

/**
 * The finish reason of an AI SDK result: V3's `{ unified, raw }`, or V2's plain string (whose `unknown`
 * becomes `other`); see `finishReasonOf`, which a streamed answer's `finish` part goes through too.
 */
export function fromFinishReason(value: unknown): ModelFinishReason {
  return finishReasonOf(value);
}
