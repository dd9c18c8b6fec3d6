import type { ToolEvent } from '../chain/tool-event.js';
import type { ToolCallResult } from '../chain/tool-execution-result.js';
import type { AssistantMessage } from '../messages/message.js';
import type { TokenUsage } from '../model/model.js';
import type { LoopEvidence } from '../guard/guard-types.js';
import type { LoopOutcome } from './loop-outcome.js';

/** What `streamToolLoop` yields, as it happens. Tool events are the chain's own. */
export type LoopEvent =
  | { readonly type: 'step-start'; readonly round: number }
  | ToolEvent
  | {
      readonly type: 'step-end';
      readonly round: number;
      readonly response: AssistantMessage;
      readonly usage: TokenUsage;
      readonly toolResults: readonly ToolCallResult[];
    }
  | {
      readonly type: 'guard-warning';
      readonly round: number;
      readonly evidence: LoopEvidence;
      readonly nudged: boolean;
    }
  | { readonly type: 'loop-end'; readonly outcome: LoopOutcome };
