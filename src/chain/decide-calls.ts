import { DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../core/defaults.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import { foreign, type ModelTextPart } from '../gate/model-text.js';
import type { AnyTool } from '../tools/define-tool.js';
import { authorizeCall } from './authorize-call.js';
import { type BeforeToolCallContext, type BeforeToolCallInput, decideToolCall } from './before-tool-call.js';
import { NEEDS_APPROVAL_REASON, needsApproval } from './needs-approval.js';
import { type PendingCall, pendingCall } from './pending-call.js';
import type { ResolvedPolicy } from './policy.js';
import type { PreparedCall, ReadyCall, RejectedCall } from './prepare.js';
import type { SettledDecision } from './resume-decision.js';
import type { CallbackFailure, CallsRequest } from './run-context.js';

/** The audit reason of a call refused by a decision given on resume. */
const DECIDED_DENY_REASON = 'denied by a resume decision';

/** What the decision sources say about one call, the strongest kept (deny > interrupt > run). */
type CallDecision =
  | { readonly type: 'run'; readonly approved?: true; readonly decidedBy?: string }
  | {
      readonly type: 'deny';
      readonly reason?: string | undefined;
      readonly message?: string | undefined;
      readonly decided?: true;
      readonly decidedBy?: string;
    }
  | { readonly type: 'interrupt'; readonly reason?: string; readonly payload?: unknown }
  | { readonly type: 'callback-failure'; readonly callback: string; readonly error: unknown };

/** True when some check, hook or given decision has something to say about these calls. */
export function asksBeforeRunning(
  prepared: readonly PreparedCall[],
  request: CallsRequest,
  runtime: { readonly policy: ResolvedPolicy },
): boolean {
  return (
    asks(runtime.policy) ||
    request.decisions !== undefined ||
    prepared.some((entry) => entry.type === 'ready' && asks(entry.tool))
  );
}

function asks(source: ResolvedPolicy | AnyTool): boolean {
  return (
    source.authorize !== undefined ||
    source.beforeToolCall !== undefined ||
    (source.needsApproval !== undefined && source.needsApproval !== false)
  );
}

/**
 * Decides every ready call, in the model's order. A denied call becomes a rejected one in place; an
 * interrupted one is listed as pending (the caller takes it out of the calls that run). Returns what waits,
 * and the callback failure that halts the response, if any.
 */
export async function decideCalls(
  prepared: PreparedCall[],
  request: CallsRequest,
  runtime: { readonly policy: ResolvedPolicy },
): Promise<
  { readonly interrupted?: readonly PendingCall[]; readonly callbackFailure?: CallbackFailure } | undefined
> {
  const { policy } = runtime;
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
    const decision = await decideCall(entry, request.decisions?.get(entry.call.id), context, policy);
    switch (decision.type) {
      case 'run':
        if (decision.approved === true) {
          const { decidedBy } = decision;
          prepared[index] = { ...entry, approved: true, ...(decidedBy === undefined ? {} : { decidedBy }) };
        }
        break;
      case 'deny':
        prepared[index] = denied(entry, decision, policy.deniedText);
        break;
      case 'interrupt':
        interrupted.push(
          pendingCall({
            toolCallId: entry.call.id,
            toolName: entry.tool.name,
            arguments: entry.call.arguments,
            reason: decision.reason,
            payload: decision.payload,
          }),
        );
        break;
      case 'callback-failure':
        return { callbackFailure: { callback: decision.callback, error: decision.error } };
      default: {
        const unreachable: never = decision;
        throw new TypeError(`unknown decision ${String(unreachable)}`);
      }
    }
  }
  return interrupted.length > 0 ? { interrupted } : undefined;
}

/**
 * One call through the decision sources: `authorize` (always: an approval never grants a permission),
 * then a decision given on resume (it settles the rest), then the `beforeToolCall` hooks, then
 * `needsApproval`. The tool's own check is asked before the policy's at each step.
 */
async function decideCall(
  entry: ReadyCall,
  given: SettledDecision | undefined,
  context: BeforeToolCallContext,
  policy: ResolvedPolicy,
): Promise<CallDecision> {
  const { tool } = entry;
  const call: BeforeToolCallInput = {
    toolCallId: entry.call.id,
    toolName: tool.name,
    arguments: entry.args,
    rawArguments: entry.call.arguments,
    tool,
  };
  if (tool.authorize !== undefined || policy.authorize !== undefined) {
    const verdict = await authorizeCall(call, context, { tool: tool.authorize, policy: policy.authorize });
    if (verdict.type === 'callback-failure') {
      return { type: 'callback-failure', callback: 'authorize', error: verdict.error };
    }
    if (verdict.type === 'denied') return { type: 'deny', reason: verdict.reason };
  }
  if (given !== undefined) {
    const by = given.by === undefined ? {} : { decidedBy: given.by };
    return given.type === 'run'
      ? { type: 'run', approved: true, ...by }
      : { type: 'deny', reason: DECIDED_DENY_REASON, message: given.message, decided: true, ...by };
  }
  if (tool.beforeToolCall !== undefined || policy.beforeToolCall !== undefined) {
    const verdict = await decideToolCall(call, context, {
      tool: tool.beforeToolCall,
      policy: policy.beforeToolCall,
    });
    if (verdict.type === 'callback-failure') {
      return { type: 'callback-failure', callback: 'beforeToolCall', error: verdict.error };
    }
    if (verdict.type !== 'run') return verdict;
  }
  const approval = await needsApproval(call, context, {
    tool: tool.needsApproval,
    policy: policy.needsApproval,
  });
  if (typeof approval !== 'boolean') {
    return { type: 'callback-failure', callback: 'needsApproval', error: approval.error };
  }
  return approval ? { type: 'interrupt', reason: NEEDS_APPROVAL_REASON } : { type: 'run' };
}

/** The call refused in place: the model is told the denial text (a person's message, redacted, when one was given). */
function denied(
  entry: ReadyCall,
  decision: {
    readonly reason?: string | undefined;
    readonly message?: string | undefined;
    readonly decided?: true;
    readonly decidedBy?: string;
  },
  deniedText: string,
): RejectedCall {
  const { reason, message, decidedBy } = decision;
  const text: ModelTextPart =
    message === undefined ? deniedText : foreign(message, DEFAULT_MAX_MODEL_MESSAGE_CHARS);
  return {
    type: 'rejected',
    call: entry.call,
    toolName: entry.tool.name,
    code: 'PERMISSION_DENIED',
    errorClass: 'denied',
    text: [text],
    error: new PermissionDeniedError({
      message: reason ?? `Call ${entry.call.id} was denied before it ran.`,
    }),
    admitted: entry.admitted,
    invalid: entry.invalid,
    ...(reason === undefined ? {} : { reason }),
    ...(decision.decided === true ? { decided: true } : {}),
    ...(decidedBy === undefined ? {} : { decidedBy }),
  };
}
