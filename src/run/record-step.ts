import type { AssistantMessage } from '../core/message.js';
import type { TokenUsage } from '../core/model.js';
import type { StepCallSummary } from '../core/run-event.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { LoopContext } from './loop-context.js';

/** Keeps a step for the outcome (`steps`, `toolResults`) and reports its end. */
export function recordStep(
  run: LoopContext,
  round: number,
  response: AssistantMessage,
  usage: TokenUsage,
  toolResults: readonly ToolCallResult[],
): void {
  run.steps.push({ round, response, usage, toolResults });
  for (const result of toolResults) run.toolResults.push(result);
  if (run.emit === undefined) return;
  const calls: StepCallSummary[] = toolResults.map((result) =>
    result.type === 'success'
      ? { toolCallId: result.toolCallId, toolName: result.toolName, type: 'success' }
      : {
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          type: 'error',
          code: result.code,
          errorClass: result.errorClass,
        },
  );
  run.emit(
    run.includeContent
      ? { type: 'step-end', round, usage, calls, response, toolResults }
      : { type: 'step-end', round, usage, calls },
  );
}
