import { DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../core/defaults.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import type { PendingCall } from '../core/pending-call.js';
import { foreign } from '../gate/model-text.js';
import type { CallDecision } from '../tools/call-decision.js';
import type { AnyTool, Decide, DecisionCall, DecisionContext } from '../tools/define-tool.js';
import { pendingCall } from './pending-call.js';
import type { ResolvedPolicy } from './policy.js';
import type { PreparedCall, ReadyCall, RejectedCall } from './prepare.js';
import type { SettledDecision } from './resume-decision.js';

/** The reason of a pending call that waits because the tool's `needsApproval` said so. */
export const NEEDS_APPROVAL_REASON = 'needs approval';

/** The audit reason of a call refused by a decision given on resume. */
const DECIDED_DENY_REASON = 'denied by a resume decision';

/** What the calls of one response are decided with: the caller's context and the decisions given on resume. */
export interface DecideRequest {
  readonly turnId?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly data?: unknown;
  readonly signal?: AbortSignal | undefined;
  readonly decisions?: ReadonlyMap<string, SettledDecision> | undefined;
}

/** One call's verdict: a decision, or the defect of the callback that could not give one. */
type Verdict =
  | CallDecision
  | { readonly type: 'callback-failure'; readonly callback: string; readonly error: unknown };

/** Deny beats ask beats run. */
const STRENGTH = { run: 0, ask: 1, deny: 2 } as const;

/** True when some hook or given decision has something to say about these calls. */
export function asksBeforeRunning(
  prepared: readonly PreparedCall[],
  request: DecideRequest,
  runtime: { readonly policy: ResolvedPolicy },
): boolean {
  return (
    runtime.policy.decide !== undefined ||
    request.decisions !== undefined ||
    prepared.some(
      (entry) =>
        entry.type === 'ready' &&
        (entry.tool.decide !== undefined || (entry.tool.needsApproval ?? false) !== false),
    )
  );
}

/**
 * Decides every ready call, in the model's order. A denied call becomes a rejected one in place; one that
 * asks is listed as pending (the caller takes it out of the calls that run). Returns what waits, and the
 * callback failure that halts the response, if any.
 */
export async function decideCalls(
  prepared: PreparedCall[],
  request: DecideRequest,
  runtime: { readonly policy: ResolvedPolicy },
): Promise<
  | {
      readonly interrupted?: readonly PendingCall[];
      readonly callbackFailure?: { readonly callback: string; readonly error: unknown };
    }
  | undefined
> {
  const { policy } = runtime;
  const context: DecisionContext = {
    turnId: request.turnId,
    sessionId: request.sessionId,
    data: request.data,
    signal: request.signal,
  };
  const interrupted: PendingCall[] = [];
  for (let index = 0; index < prepared.length; index++) {
    const entry = prepared[index] as PreparedCall;
    if (entry.type !== 'ready') continue;
    const given = request.decisions?.get(entry.call.id);
    const verdict = await decideCall(entry, given, context, policy.decide);
    switch (verdict.type) {
      case 'callback-failure':
        return { callbackFailure: { callback: verdict.callback, error: verdict.error } };
      case 'deny':
        prepared[index] = denied(entry, { reason: verdict.reason }, policy.deniedText);
        break;
      case 'ask':
      case 'run': {
        // A decision given on resume settles what the hooks left open; only a denial overrides it.
        if (given !== undefined) {
          const by = given.by === undefined ? {} : { decidedBy: given.by };
          prepared[index] =
            given.type === 'run'
              ? { ...entry, approved: true, ...by }
              : denied(
                  entry,
                  { reason: DECIDED_DENY_REASON, message: given.message, decided: true, ...by },
                  policy.deniedText,
                );
        } else if (verdict.type === 'ask') {
          const { reason, payload } = verdict;
          interrupted.push(
            pendingCall({
              toolCallId: entry.call.id,
              toolName: entry.tool.name,
              arguments: entry.call.arguments,
              reason,
              payload,
            }),
          );
        }
        break;
      }
      default: {
        const unreachable: never = verdict;
        throw new TypeError(`unknown decision ${String(unreachable)}`);
      }
    }
  }
  return interrupted.length > 0 ? { interrupted } : undefined;
}

/**
 * One call through its hooks: the tool's `decide`, the policy's (unless the tool's denied), then the tool's
 * `needsApproval` (unless a decision was given on resume, which answers it, or a hook already asks). Asked
 * on resume too, so a permission revoked while the call waited denies it. Never throws.
 */
async function decideCall(
  entry: ReadyCall,
  given: SettledDecision | undefined,
  context: DecisionContext,
  policyDecide: Decide | undefined,
): Promise<Verdict> {
  const { tool } = entry;
  const call: DecisionCall = {
    toolCallId: entry.call.id,
    toolName: tool.name,
    arguments: entry.args,
    rawArguments: entry.call.arguments,
    tool,
  };
  let decided: CallDecision = { type: 'run' };
  for (const hook of [tool.decide, policyDecide]) {
    if (hook === undefined || decided.type === 'deny') continue;
    let decision: CallDecision;
    try {
      decision = readDecision(await hook(call, context));
    } catch (error) {
      return { type: 'callback-failure', callback: 'decide', error };
    }
    if (STRENGTH[decision.type] > STRENGTH[decided.type]) decided = decision;
  }
  if (decided.type !== 'run' || given !== undefined) return decided;
  return askedForApproval(tool, entry.args, context);
}

/** The tool's `needsApproval`, the shorthand for `{ type: 'ask' }`. */
async function askedForApproval(tool: AnyTool, args: unknown, context: DecisionContext): Promise<Verdict> {
  const rule = tool.needsApproval;
  let answer: unknown = rule ?? false;
  if (typeof rule === 'function') {
    try {
      answer = await rule(args, context);
    } catch (error) {
      return { type: 'callback-failure', callback: 'needsApproval', error };
    }
  }
  if (answer === true) return { type: 'ask', reason: NEEDS_APPROVAL_REASON };
  if (answer === false) return { type: 'run' };
  const error = new TypeError('needsApproval must return true or false (or a promise of one)');
  return { type: 'callback-failure', callback: 'needsApproval', error };
}

/** A copy of a well-formed decision, each field read once; anything else throws (a caller defect). */
function readDecision(answer: unknown): CallDecision {
  const { type, reason, payload } = (answer ?? {}) as { type?: unknown; reason?: unknown; payload?: unknown };
  if (type === 'run') return { type };
  if (type === 'deny' && typeof reason === 'string') return { type, reason };
  if (type === 'ask' && (reason === undefined || typeof reason === 'string')) {
    return {
      type,
      ...(reason === undefined ? {} : { reason }),
      ...(payload === undefined ? {} : { payload }),
    };
  }
  throw new TypeError(
    "decide must return { type: 'run' }, { type: 'ask', reason?, payload? } or { type: 'deny', reason } (or a promise of one)",
  );
}

/** The call refused in place: the model is told the denial text (a person's message, redacted, when one was given). */
function denied(
  entry: ReadyCall,
  decision: { reason: string; message?: string | undefined; decided?: true; decidedBy?: string },
  deniedText: string,
): RejectedCall {
  const { reason, message, decided, decidedBy } = decision;
  return {
    type: 'rejected',
    call: entry.call,
    toolName: entry.tool.name,
    code: 'PERMISSION_DENIED',
    errorClass: 'denied',
    text: [message === undefined ? deniedText : foreign(message, DEFAULT_MAX_MODEL_MESSAGE_CHARS)],
    error: new PermissionDeniedError({ message: reason }),
    admitted: entry.admitted,
    invalid: entry.invalid,
    reason,
    ...(decided === undefined ? {} : { decided }),
    ...(decidedBy === undefined ? {} : { decidedBy }),
  };
}
