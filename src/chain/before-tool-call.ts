import type { AnyTool } from '../tools/define-tool.js';

/** The call a `beforeToolCall` hook decides on: its arguments have passed the tool's schema. */
export interface BeforeToolCallInput {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The validated arguments, as the tool would receive them. */
  readonly arguments: unknown;
  /** The argument text the model sent. */
  readonly rawArguments: string;
  readonly tool: AnyTool;
}

export interface BeforeToolCallContext {
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  /** Caller data, as the tool would receive it. */
  readonly data: unknown;
  /** The execution's signal, when the caller gave one. */
  readonly signal: AbortSignal | undefined;
}

/**
 * What happens to a call. `run` (or `undefined`): it runs. `deny`: it never runs, the model learns only that
 * it is not permitted, and the call's `tool-call-end` event keeps the reason (`denialReason`). `interrupt`: it waits for a decision
 * (the execution reports it as pending, to be resumed with one); the calls of the response that need no
 * decision run.
 */
export type ToolCallDecision =
  | { readonly type: 'run' }
  | { readonly type: 'deny'; readonly reason?: string }
  | { readonly type: 'interrupt'; readonly reason?: string; readonly payload?: unknown };

/** A decision point before a call runs (permissions, approval). A hook that throws is a caller defect. */
export type BeforeToolCall = (
  call: BeforeToolCallInput,
  context: BeforeToolCallContext,
) => ToolCallDecision | undefined | Promise<ToolCallDecision | undefined>;

/** The hooks' verdict, or the defect of a hook that could not give one. */
export type HookVerdict = ToolCallDecision | { readonly type: 'callback-failure'; readonly error: unknown };

/** Deny beats interrupt beats run. */
const PRECEDENCE = { run: 0, interrupt: 1, deny: 2 } as const;

/**
 * Asks the tool's hook, then the policy's (unless the tool's already denied), and keeps the stronger
 * decision. Never throws: a hook that throws, rejects or answers something else is a `callback-failure`.
 */
export async function decideToolCall(
  call: BeforeToolCallInput,
  context: BeforeToolCallContext,
  hooks: { readonly tool: BeforeToolCall | undefined; readonly policy: BeforeToolCall | undefined },
): Promise<HookVerdict> {
  let decided: ToolCallDecision = { type: 'run' };
  for (const hook of [hooks.tool, hooks.policy]) {
    if (hook === undefined || decided.type === 'deny') continue;
    let answer: unknown;
    try {
      answer = await hook(call, context);
    } catch (error) {
      return { type: 'callback-failure', error };
    }
    const decision = readDecision(answer);
    if (decision === undefined) {
      return {
        type: 'callback-failure',
        error: new TypeError(
          "beforeToolCall must return undefined, { type: 'run' }, { type: 'deny', reason? } or { type: 'interrupt', reason?, payload? }",
        ),
      };
    }
    if (PRECEDENCE[decision.type] > PRECEDENCE[decided.type]) decided = decision;
  }
  return decided;
}

/** A copy of a well-formed decision (each field read once), or undefined. */
function readDecision(answer: unknown): ToolCallDecision | undefined {
  if (answer === undefined) return { type: 'run' };
  if (typeof answer !== 'object' || answer === null) return undefined;
  try {
    const { type, reason, payload } = answer as { type?: unknown; reason?: unknown; payload?: unknown };
    if (reason !== undefined && typeof reason !== 'string') return undefined;
    const withReason = reason === undefined ? {} : { reason };
    switch (type) {
      case 'run':
        return { type };
      case 'deny':
        return { type, ...withReason };
      case 'interrupt':
        return { type, ...withReason, ...(payload === undefined ? {} : { payload }) };
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
