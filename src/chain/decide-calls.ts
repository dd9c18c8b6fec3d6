import { PermissionDeniedError } from '../errors/permission-denied-error.js';
import { type BeforeToolCallContext, decideToolCall } from './before-tool-call.js';
import type { PreparedCall, ReadyCall, RejectedCall } from './prepare-tool-call.js';
import type { CallbackFailure, CallsRequest } from './run-tool-calls.js';
import type { PendingCall } from './tool-execution-result.js';
import { PERMISSION_DENIED_TEXT } from './tool-failure.js';
import type { ToolRuntime } from './tool-runtime.js';

/** True when some hook or given decision has something to say about these calls. */
export function asksBeforeRunning(
  prepared: readonly PreparedCall[],
  request: CallsRequest,
  runtime: ToolRuntime,
): boolean {
  return (
    runtime.policy.beforeToolCall !== undefined ||
    request.decisions !== undefined ||
    prepared.some((entry) => entry.type === 'ready' && entry.tool.beforeToolCall !== undefined)
  );
}

/**
 * Asks the hooks of every ready call, in the model's order (a decision given for a call id wins). A denied
 * call becomes a rejected one in place. Returns what halts the response, if anything does.
 */
export async function decideCalls(
  prepared: PreparedCall[],
  request: CallsRequest,
  runtime: ToolRuntime,
): Promise<
  { readonly interrupted?: readonly PendingCall[]; readonly callbackFailure?: CallbackFailure } | undefined
> {
  const policyHook = runtime.policy.beforeToolCall;
  const { decisions } = request;
  const context: BeforeToolCallContext = {
    turnId: request.turnId,
    sessionId: request.sessionId,
    data: request.data,
    signal: request.signal,
  };
  const interrupted: PendingCall[] = [];
  for (let index = 0; index < prepared.length; index++) {
    const entry = prepared[index] as PreparedCall;
    if (entry.type !== 'ready') continue;
    const given = decisions?.get(entry.call.id);
    if (given === 'deny') {
      prepared[index] = denied(entry, undefined);
      continue;
    }
    if (given === 'run' || (policyHook === undefined && entry.tool.beforeToolCall === undefined)) continue;
    const verdict = await decideToolCall(
      {
        toolCallId: entry.call.id,
        toolName: entry.tool.name,
        arguments: entry.args,
        rawArguments: entry.call.arguments,
        tool: entry.tool,
      },
      context,
      { tool: entry.tool.beforeToolCall, policy: policyHook },
    );
    switch (verdict.type) {
      case 'run':
        break;
      case 'deny':
        prepared[index] = denied(entry, verdict.reason);
        break;
      case 'interrupt':
        interrupted.push({
          toolCallId: entry.call.id,
          toolName: entry.tool.name,
          arguments: entry.call.arguments,
          ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
          ...(verdict.payload === undefined ? {} : { payload: verdict.payload }),
        });
        break;
      case 'callback-failure':
        return { callbackFailure: { callback: 'beforeToolCall', error: verdict.error } };
      default: {
        const unreachable: never = verdict;
        throw new TypeError(`unknown decision ${String(unreachable)}`);
      }
    }
  }
  return interrupted.length > 0 ? { interrupted } : undefined;
}

function denied(entry: ReadyCall, reason: string | undefined): RejectedCall {
  return {
    type: 'rejected',
    call: entry.call,
    toolName: entry.tool.name,
    code: 'PERMISSION_DENIED',
    errorClass: 'denied',
    text: [PERMISSION_DENIED_TEXT],
    error: new PermissionDeniedError({
      message: reason ?? `Call ${entry.call.id} was denied before it ran.`,
    }),
    admitted: entry.admitted,
    invalid: entry.invalid,
    ...(reason === undefined ? {} : { reason }),
  };
}
