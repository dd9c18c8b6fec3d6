import type { ToolCallAnswer, ToolRuntime } from '../../chain/runtime.js';
import type { LimitScope } from '../../core/tool-execution-result.js';
import { holdCallEnd, type ScreenNotes } from './hold-call-end.js';
import { McpCallError } from './mcp-call-error.js';
import type { ConfirmationAnswer, Forward, Observation, Refusal } from './proxy/call-decision.js';
import type { UpstreamAnswer } from './proxy/guard-answer.js';
import { CODE_META_KEY, type ProxyCallToolResult } from './proxy/mcp-shapes.js';
import type { ProxyConfig } from './proxy/proxy-config-types.js';
import type { ProxyScreen } from './proxy/proxy-screen.js';
import { refusalResult, withNote } from './proxy/refusal-result.js';
import { refusalOf } from './proxy/refusal-text.js';
import { type ProxiedCall, proxiedCall, type SessionPolicy } from './proxy/session-policy.js';
import {
  type ConfirmationNote,
  DECIDED_BY_CONFIG,
  DECIDED_BY_USER,
  type SessionAudit,
} from './proxy-audit.js';
import type { ProxySessionMemory } from './proxy-session-memory.js';

/** What one session's calls run with. */
export interface ProxyCallContext {
  readonly config: ProxyConfig;
  readonly policy: SessionPolicy;
  readonly audit: SessionAudit;
  /** Pins, secrets and rate limits around the policy (`proxy-screen.ts`); none: nothing checked. */
  readonly screen?: ProxyScreen;
  /** Who the client is (its key's id): its rate limits count under it. */
  readonly clientId?: string;
  /** The session's id: its limits count under it in the runtime's store. */
  readonly sessionId: string;
  /** The scope of the idempotency records: the config's `idempotentWrites.scope`, else the session's id. */
  readonly idempotencyScope: string;
  /** The current runtime of a tool (rebuilt when the upstream's tools change) and its name in the chain. */
  readonly runtime: (name: string) => ToolRuntime;
  readonly chainName: (name: string) => string;
  /** Asks the user (MCP elicitation), or `unavailable` when the client cannot be asked. */
  readonly confirm: (message: string, signal: AbortSignal) => Promise<ConfirmationAnswer>;
  /** A call was refused because it needs a confirmation this client cannot give (for the operator's log). */
  readonly onCannotConfirm?: (name: string) => void;
  /** The policy's memory kept in the store (shared by proxy instances); undefined: in this process only. */
  readonly memory?: ProxySessionMemory;
}

/**
 * One `tools/call`: the policy's decision, the confirmation, the chain, the loop guard. Always a
 * `CallToolResult`: every failure is an `isError` result with toolwarden's code, never a thrown error
 * (which the SDK would send as JSON-RPC -32603).
 */
export async function proxyCall(
  context: ProxyCallContext,
  name: string,
  sent: unknown,
  signal: AbortSignal,
): Promise<ProxyCallToolResult> {
  const { policy, audit } = context;
  // The screen first: a withheld tool, or a secret in the arguments, is refused; redacted ones go on.
  const admission = context.screen?.admit(proxiedCall(name, sent));
  if (admission?.kind === 'refuse') {
    audit.refused(proxiedCall(name, sent), admission.refusal, undefined, admission.note);
    return refusalResult(admission.refusal);
  }
  const args = admission === undefined ? sent : admission.call.args;
  const screened: ScreenNotes = { note: admission?.note ?? {} };
  const call = proxiedCall(name, args);
  await context.memory?.refresh(call);
  const decision = policy.decide(call);
  let forward: Forward | Refusal;
  let note: ConfirmationNote | undefined;
  switch (decision.kind) {
    case 'refuse':
      forward = decision;
      break;
    case 'forward':
      forward = decision;
      break;
    case 'confirm': {
      const answer = await context.confirm(decision.message, signal);
      forward = policy.confirmed(call, answer);
      note = noteOf(answer, forward);
      if (answer === 'unavailable' && forward.kind === 'refuse' && forward.code === 'PERMISSION_DENIED')
        context.onCannotConfirm?.(name);
      break;
    }
    default: {
      const never: never = decision;
      return never;
    }
  }
  if (forward.kind === 'refuse') {
    audit.refused(call, forward, note, screened.note);
    return refusalResult(forward);
  }
  const limited = await context.screen?.take(call, context.clientId);
  if (limited !== undefined) {
    audit.refused(call, limited, note, screened.note);
    return refusalResult(limited);
  }
  const held = holdCallEnd(
    audit.listener(note, name, () => screened.note),
    screened,
  );
  const onEvent = held.listener;
  let answer: ToolCallAnswer;
  try {
    const outcome = await context.runtime(name).executeToolCall(
      { name: context.chainName(name), arguments: call.text },
      {
        signal,
        sessionId: context.sessionId,
        idempotencyScope: context.idempotencyScope,
        ...(onEvent === undefined ? {} : { onEvent }),
      },
    );
    // No tool of the proxy's runtime needs approval: an interruption is a defect, answered as one.
    if (outcome.type !== 'answered') {
      held.release();
      return failure('TOOL_ERROR', 'The call could not be run.');
    }
    answer = outcome;
  } catch {
    // The client aborted, or a callback failed: the client gets a result all the same.
    held.release();
    return failure('TOOL_UNAVAILABLE', 'The call was cancelled before it finished.');
  }
  // A limit of the session: the call never went upstream, and the client gets the proxy's refusal.
  if (answer.limit !== undefined) {
    held.release();
    return refusalResult(limitRefusal(name, answer.limit));
  }
  return await observed(context, call, answer, held);
}

/** The client's result of a call that went through the chain, after the loop guard saw it. */
async function observed(
  context: ProxyCallContext,
  call: ProxiedCall,
  answer: ToolCallAnswer,
  held: ReturnType<typeof holdCallEnd>,
): Promise<ProxyCallToolResult> {
  const upstream = upstreamOf(answer);
  let result = clientResult(answer, upstream, context.config, (text) =>
    asCalled(text, call.name, context.chainName(call.name)),
  );
  let withheld: Refusal | undefined;
  // A successful result is screened for secrets (an error's text is the chain's, redacted already).
  if (context.screen !== undefined && !answer.isError && upstream.kind === 'result') {
    const delivered = context.screen.deliver(call, result);
    const { note } = held.screened;
    held.screened.note = { ...note, secrets: [...(note.secrets ?? []), ...(delivered.note.secrets ?? [])] };
    if (delivered.kind === 'refuse') withheld = delivered.refusal;
    else result = delivered.result;
  }
  let observation: Observation | undefined;
  try {
    observation =
      context.memory === undefined
        ? context.policy.observe(call, upstream)
        : await context.memory.observe(call, upstream);
  } finally {
    held.release(
      observation?.kind === 'repeat'
        ? 'LOOP_DETECTED'
        : withheld === undefined
          ? undefined
          : 'SECRET_DETECTED',
    );
  }
  if (withheld !== undefined && observation.kind !== 'repeat') return refusalResult(withheld);
  switch (observation.kind) {
    case 'pass':
      return result;
    case 'warn':
      return observation.note === undefined ? result : withNote(result, observation.note);
    case 'stop':
      return withNote(result, observation.note);
    case 'repeat':
      return refusalResult(observation.refusal);
    default: {
      const never: never = observation;
      return never;
    }
  }
}

/** The refusal of a call the chain refused at a limit of the session (`limits.perSession`). */
function limitRefusal(name: string, limit: { readonly scope: LimitScope; readonly limit: number }): Refusal {
  switch (limit.scope) {
    case 'session-per-tool':
    case 'per-tool':
      return refusalOf({ reason: 'tool-limit', tool: name, limit: limit.limit });
    case 'session-total':
    case 'total':
      return refusalOf({ reason: 'session-limit', limit: limit.limit });
    default: {
      const never: never = limit.scope;
      return never;
    }
  }
}

/** How the audit records a call that needed confirmation; undefined for a call that did not. */
function noteOf(answer: ConfirmationAnswer, decision: Forward | Refusal): ConfirmationNote | undefined {
  switch (answer) {
    case 'accept':
      return { approval: 'approved', decidedBy: DECIDED_BY_USER };
    case 'decline':
    case 'cancel':
      return { approval: 'denied', decidedBy: DECIDED_BY_USER };
    case 'unavailable':
      return decision.kind === 'forward' ? { approval: 'approved', decidedBy: DECIDED_BY_CONFIG } : undefined;
    default: {
      const never: never = answer;
      return never;
    }
  }
}

/**
 * What the upstream answered, from the chain's answer: on success the tool's value (the upstream's result
 * as sent, read by `mcpToolsOf` with `asSent`; for a replayed write, the recorded one); on failure the upstream's `isError` result, which the
 * failure's cause carries, or else the failure (a JSON-RPC error, a timeout, a broken result, a contract).
 */
function upstreamOf(answer: ToolCallAnswer): UpstreamAnswer {
  if (!answer.isError) return { kind: 'result', result: answer.value as ProxyCallToolResult };
  const result = answer.result.type === 'error' ? toolResultOf(answer.result.error) : undefined;
  if (result !== undefined) return { kind: 'result', result };
  return { kind: 'failed', transient: answer.errorClass === 'transient', text: answer.content };
}

/** The `isError` result a tool's failure carries: an `McpCallError` of kind `tool`, itself or as a cause. */
function toolResultOf(error: unknown): ProxyCallToolResult | undefined {
  let current = error;
  for (let depth = 0; depth < 3 && current !== undefined; depth++) {
    if (McpCallError.isInstance(current)) return current.result as ProxyCallToolResult | undefined;
    current = (current as { cause?: unknown } | null)?.cause;
  }
  return undefined;
}

/**
 * The client's result: on success the upstream's own (replayed writes: the recorded one); on failure
 * toolwarden's text (classified, redacted) with its code, or, with `redactErrors: false`, the upstream's
 * own `isError` result.
 */
function clientResult(
  answer: ToolCallAnswer,
  upstream: UpstreamAnswer,
  config: ProxyConfig,
  named: (text: string) => string,
): ProxyCallToolResult {
  if (!answer.isError && upstream.kind === 'result') return upstream.result;
  if (!config.redactErrors && upstream.kind === 'result') return upstream.result;
  return failure(answer.code ?? 'TOOL_ERROR', named(answer.content));
}

/**
 * The chain's text naming the tool as the client called it: the chain knows a namespaced tool by a name
 * without dots (`bad_huge` for `bad.huge`), and a model told that name would call a tool that is not
 * there. Every text of the chain for the model quotes a tool's name in single quotes.
 */
function asCalled(text: string, name: string, chainName: string): string {
  return chainName === name ? text : text.replaceAll(`'${chainName}'`, `'${name}'`);
}

function failure(code: string, text: string): ProxyCallToolResult {
  return { content: [{ type: 'text', text }], isError: true, _meta: { [CODE_META_KEY]: code } };
}
