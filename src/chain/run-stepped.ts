import type { ToolCallResult } from '../core/tool-execution-result.js';
import { executeCall, wrappedCallOf } from './execute.js';
import { runIdempotent } from './idempotency/run-idempotent.js';
import type { ReadyCall } from './prepare.js';
import type { RunContext, RunningCall } from './run-context.js';
import { toolFailure } from './tool-failure.js';
import type { CallReport, WrapCallStep } from './wrap-call-step.js';
import { isResultOf } from './wrap-tool-execution.js';

/**
 * One admitted call run inside a driver's `wrapCallStep`: its record and execution as one unit, what the
 * chain records beside the result gathered into a report (so a step replayed from its checkpoint records
 * the same), then handed to the execution's context. A step that throws, or resolves with something that is
 * not a report of this call, fails the call as `INTERNAL_ERROR` (a callback failure).
 */
export async function runStepped(
  step: WrapCallStep,
  ready: ReadyCall,
  call: RunningCall,
  context: RunContext,
): Promise<ToolCallResult> {
  const next = async (): Promise<CallReport> => {
    let report: Omit<CallReport, 'result'> = {};
    const own: RunContext = {
      ...context,
      storeFailed: (toolName, error) => {
        report = { storeFailure: { toolName, error }, ...report };
      },
      limitReached: (toolName, limit) => {
        report = { limited: { toolName, limit }, ...report };
      },
      callbackFailed: (callback, error) => {
        report = { callbackFailure: { callback, error }, ...report };
      },
    };
    const result = await runIdempotent(ready, call, own, () => executeCall(ready, call, own));
    return { result, ...report };
  };
  const info = wrappedCallOf(ready, call, context);
  let report: CallReport;
  try {
    report = await step(info, next);
    if (!isResultOf(report?.result, call.base.toolCallId)) {
      throw new TypeError(`wrapCallStep must resolve with a report of call ${call.base.toolCallId}`);
    }
  } catch (error) {
    context.callbackFailed('wrapCallStep', error);
    return toolFailure({ base: call.base, error, errorClass: 'fatal', attempts: 0, durationMs: 0 });
  }
  if (report.storeFailure !== undefined)
    context.storeFailed(report.storeFailure.toolName, report.storeFailure.error);
  if (report.limited !== undefined) context.limitReached(report.limited.toolName, report.limited.limit);
  if (report.callbackFailure !== undefined) {
    context.callbackFailed(report.callbackFailure.callback, report.callbackFailure.error);
  }
  return report.result;
}
