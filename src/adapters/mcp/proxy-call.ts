import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolCallAnswer, ToolRuntime } from '../../chain/runtime.js';
import type { ConfirmationAnswer, Forward, Observation, Refusal } from '../../mcp-proxy/call-decision.js';
import type { UpstreamAnswer } from '../../mcp-proxy/guard-answer.js';
import { CODE_META_KEY, type ProxyCallToolResult } from '../../mcp-proxy/mcp-shapes.js';
import type { ProxyConfig } from '../../mcp-proxy/proxy-config.js';
import { refusalResult, withNote } from '../../mcp-proxy/refusal-result.js';
import type { SessionPolicy } from '../../mcp-proxy/session-policy.js';
import { holdCallEnd } from './hold-call-end.js';
import type { McpClientPort } from './mcp-client-port.js';
import {
  type ConfirmationNote,
  DECIDED_BY_CONFIG,
  DECIDED_BY_USER,
  type SessionAudit,
} from './proxy-audit.js';

/** Where the upstream's raw answer to the call running in this async context is kept (see `capturingPort`). */
const upstreamAnswer = new AsyncLocalStorage<{ raw?: unknown }>();

/**
 * The port with each `tools/call` answer kept for the call that asked for it: the proxy hands the client
 * the upstream's own result, unchanged, and the chain's reading of it only decides whether it is one.
 */
export function capturingPort(port: McpClientPort): McpClientPort {
  return {
    listTools: (cursor, options) => port.listTools(cursor, options),
    callTool: async (name, args, options) => {
      const raw = await port.callTool(name, args, options);
      const box = upstreamAnswer.getStore();
      if (box !== undefined) box.raw = raw;
      return raw;
    },
    onToolsChanged: (listener) => port.onToolsChanged(listener),
  };
}

/** What one session's calls run with. */
export interface ProxyCallContext {
  readonly config: ProxyConfig;
  readonly policy: SessionPolicy;
  readonly audit: SessionAudit;
  readonly sessionId: string;
  /** The scope of the idempotency records: the config's `idempotentWrites.scope`, else the session's id. */
  readonly idempotencyScope: string;
  /** The current runtime (rebuilt when the upstream's tools change) and the chain's name of a tool. */
  readonly runtime: () => ToolRuntime;
  readonly chainName: (name: string) => string;
  /** Asks the user (MCP elicitation), or `unavailable` when the client cannot be asked. */
  readonly confirm: (message: string, signal: AbortSignal) => Promise<ConfirmationAnswer>;
  /** A call was refused because it needs a confirmation this client cannot give (for the operator's log). */
  readonly onCannotConfirm?: (name: string) => void;
}

/**
 * One `tools/call`: the policy's decision, the confirmation, the chain, the loop guard. Always a
 * `CallToolResult`: every failure is an `isError` result with toolwarden's code, never a thrown error
 * (which the SDK would send as JSON-RPC -32603).
 */
export async function proxyCall(
  context: ProxyCallContext,
  name: string,
  args: unknown,
  signal: AbortSignal,
): Promise<ProxyCallToolResult> {
  const { policy, audit } = context;
  const decision = policy.decide(name, args);
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
      forward = policy.confirmed(name, args, answer);
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
    audit.refused(name, args, forward, note);
    return refusalResult(forward);
  }
  const box: { raw?: unknown } = {};
  const held = holdCallEnd(audit.listener(note));
  const onEvent = held.listener;
  let answer: ToolCallAnswer;
  try {
    const outcome = await upstreamAnswer.run(box, () =>
      context
        .runtime()
        .executeToolCall(
          { name: context.chainName(name), arguments: args ?? {} },
          { signal, sessionId: context.idempotencyScope, ...(onEvent === undefined ? {} : { onEvent }) },
        ),
    );
    // No tool of the proxy's runtime needs approval: an interruption is a defect, answered as one.
    if (outcome.type !== 'answered') {
      held.release(false);
      return failure('TOOL_ERROR', 'The call could not be run.');
    }
    answer = outcome;
  } catch {
    // The client aborted, or a callback failed: the client gets a result all the same.
    held.release(false);
    return failure('TOOL_UNAVAILABLE', 'The call was cancelled before it finished.');
  }
  const upstream = upstreamOf(answer, box.raw);
  const result = clientResult(answer, upstream, context.config);
  let observation: Observation | undefined;
  try {
    observation = policy.observe(name, args, upstream);
  } finally {
    held.release(observation?.kind === 'repeat');
  }
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

/** What the upstream answered, as the loop guard reads it: its result (`isError` or not), or the failure. */
function upstreamOf(answer: ToolCallAnswer, raw: unknown): UpstreamAnswer {
  if (!answer.isError) return { kind: 'result', result: isResult(raw) ? raw : recorded(answer.value) };
  if (isResult(raw) && raw.isError === true) return { kind: 'result', result: raw };
  return { kind: 'failed', transient: answer.errorClass === 'transient', text: answer.content };
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
): ProxyCallToolResult {
  if (!answer.isError && upstream.kind === 'result') return upstream.result;
  if (!config.redactErrors && upstream.kind === 'result') return upstream.result;
  return failure(answer.code ?? 'TOOL_ERROR', answer.content);
}

/**
 * A replayed write's result: the value the chain recorded, as `readCallResult` read it, with the
 * `isError: false` it adds left out again (the reference servers send none on success).
 */
function recorded(value: unknown): ProxyCallToolResult {
  const { isError, ...rest } = value as ProxyCallToolResult;
  return isError === true ? (value as ProxyCallToolResult) : rest;
}

function failure(code: string, text: string): ProxyCallToolResult {
  return { content: [{ type: 'text', text }], isError: true, _meta: { [CODE_META_KEY]: code } };
}

function isResult(value: unknown): value is ProxyCallToolResult {
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content)
  );
}
