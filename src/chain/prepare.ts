import type { ErrorClass } from '../core/error-class.js';
import type { ToolCall } from '../core/message.js';
import type { ToolErrorCode } from '../core/tool-execution-result.js';
import type { ValidationOutcome } from '../core/validation-issue.js';
import { issueParts } from '../gate/issue-text.js';
import type { ModelTextPart } from '../gate/model-text.js';
import { sanitizeName } from '../redact/redact.js';
import type { AnyTool } from '../tools/define-tool.js';
import { effectRules } from '../tools/tool-effect.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { type LimitScope, limitModelText, perToolLimitMessage, totalLimitMessage } from './call-limits.js';
import type { ResolvedPolicy } from './policy.js';
import { parseArguments } from './parse-arguments.js';
import { type ReservationScope, reserveCall, type SharedCounter, sharedCounters } from './reserve-call.js';
import { increment, type TurnCounts } from './limits.js';
import { unknownToolText } from '../gate/unknown-tool-text.js';

/** What a prepared call added to the turn's counts, so an interrupted response can give it back. */
interface Counted {
  /** Counted toward the per-tool and total limits. */
  readonly admitted: boolean;
  /** Counted as an invalid-argument attempt. */
  readonly invalid: boolean;
  /** The store counters this call was counted in (see `reserveCall`): given back when it does not run. */
  readonly reserved?: readonly string[];
}

/** A call that may run now, with arguments that passed the tool's schema. */
export interface ReadyCall extends Counted {
  readonly type: 'ready';
  readonly call: ToolCall;
  readonly tool: AnyTool;
  readonly args: unknown;
  /** The store failed to count the call, and the read tool runs uncounted (`onStoreFailure: 'open'`). */
  readonly storeFailure?: unknown;
  /**
   * The store counters of an idempotent write, not reserved yet: its claim counts them, in the same round
   * trip (so a duplicate, which does not run, is not counted either).
   */
  readonly deferredCounters?: readonly SharedCounter[];
  /** A decision given on resume approved it (for the audit). */
  readonly approved?: true;
  /** Who approved it (the decision's `by`). */
  readonly decidedBy?: string;
}

/** A call refused before its tool ran: the model is told why. */
export interface RejectedCall extends Counted {
  readonly type: 'rejected';
  readonly call: ToolCall;
  readonly toolName: string;
  readonly code: ToolErrorCode;
  readonly errorClass: ErrorClass;
  /** What the model is told, in parts for the gate (`formatToolError`); `plainText` of it is the developer's. */
  readonly text: readonly ModelTextPart[];
  readonly limit?: { readonly scope: LimitScope; readonly limit: number };
  readonly availableTools?: readonly string[];
  /** The original failure, when there was one (a validator that threw, a denial). */
  readonly error?: unknown;
  /** Why a `beforeToolCall` hook denied the call, for the audit event. */
  readonly reason?: string;
  /** Refused because the store failed (`error` is its failure): the tool is unavailable until it is back. */
  readonly storeFailed?: true;
  /** Refused by a decision given on resume (for the audit). */
  readonly decided?: true;
  /** Who refused it (the decision's `by`). */
  readonly decidedBy?: string;
}

export type PreparedCall = ReadyCall | RejectedCall;

export interface PrepareContext {
  readonly registry: ToolRegistry;
  readonly policy: ResolvedPolicy;
  /** The turn's counts, updated here; undefined: no turn limits apply. */
  readonly counts: TurnCounts | undefined;
  /** The session and turn whose limits are shared through the store. */
  readonly scope?: ReservationScope | undefined;
}

/**
 * Decides, in the model's order, what happens to one call before anything runs: look the tool up, check
 * the turn's limits and failed attempts, parse and validate the arguments. `counts` is this execution's
 * own and is updated here, so the decisions are the same whatever order the calls later finish in.
 * Never rejects: a validator that throws refuses the call as a fatal failure.
 */
export async function prepareToolCall(call: ToolCall, context: PrepareContext): Promise<PreparedCall> {
  const { registry, policy, counts } = context;
  const tool = registry.get(call.name);
  if (tool === undefined) {
    const available = registry.names();
    return reject(call, NOT_COUNTED, {
      toolName: sanitizeName(call.name),
      code: 'UNKNOWN_TOOL',
      text: unknownToolText(call.name, available),
      availableTools: available,
    });
  }
  const name = tool.name;
  const counted = counts !== undefined && !policy.limits.isExcluded(name);
  if (counts !== undefined && counted) {
    const limit = policy.limits.limitFor(tool);
    if ((counts.perTool.get(name) ?? 0) >= limit) {
      return reject(call, NOT_COUNTED, {
        toolName: name,
        code: 'TOOL_CALL_LIMIT',
        text: [perToolLimitMessage(limit, name)],
        limit: { scope: 'per-tool', limit },
      });
    }
    if (counts.total >= policy.limits.total) {
      return reject(call, NOT_COUNTED, {
        toolName: name,
        code: 'TOOL_CALL_LIMIT',
        text: [totalLimitMessage(policy.limits.total)],
        limit: { scope: 'total', limit: policy.limits.total },
      });
    }
  }
  const invalid = counts?.invalidPerTool.get(name) ?? 0;
  if (invalid >= policy.maxInvalidAttempts) {
    return reject(call, NOT_COUNTED, {
      toolName: name,
      code: 'TOO_MANY_INVALID_ATTEMPTS',
      text: [
        `Tool '${name}' was called with invalid arguments ${invalid} times in this turn; it will not be tried again. Answer with what you have or use another tool.`,
      ],
    });
  }
  // Counted before anything is awaited: calls prepared at the same time against one turn's counts (the
  // AI SDK starts a step's calls at once) must not both pass a limit of one. A refusal below gives it back.
  if (counts !== undefined && counted) {
    increment(counts.perTool, name);
    counts.total++;
  }
  const refuse = (refusal: Parameters<typeof reject>[2]): PreparedCall => {
    if (counts !== undefined && counted) {
      counts.perTool.set(name, (counts.perTool.get(name) ?? 1) - 1);
      counts.total--;
    }
    return reject(call, NOT_COUNTED, refusal);
  };
  let shared: {
    readonly reserved?: readonly string[];
    readonly storeFailure?: unknown;
    readonly deferredCounters?: readonly SharedCounter[];
  } = {};
  const deferred =
    context.scope === undefined || tool.idempotency === undefined
      ? undefined
      : sharedCounters(tool, context.scope, policy);
  if (deferred !== undefined) shared = { deferredCounters: deferred };
  else if (context.scope !== undefined) {
    const reservation = await reserveCall(tool, context.scope, policy);
    switch (reservation.type) {
      case 'none':
        break;
      case 'reserved':
        shared = { reserved: reservation.keys };
        break;
      case 'limited': {
        const limit = { scope: reservation.scope, limit: reservation.limit };
        return refuse({
          toolName: name,
          code: 'TOOL_CALL_LIMIT',
          text: [limitModelText(limit, name)],
          limit,
        });
      }
      case 'store-failed':
        if (effectRules(tool.effect).closedOnStoreFailure || policy.onStoreFailure === 'closed') {
          return refuse({
            toolName: name,
            code: 'TOOL_UNAVAILABLE',
            text: [STORE_UNAVAILABLE_TEXT(name)],
            errorClass: 'transient',
            error: reservation.error,
            storeFailed: true,
          });
        }
        shared = { storeFailure: reservation.error };
        break;
      default: {
        const unreachable: never = reservation;
        throw new TypeError(`unknown reservation ${String(unreachable)}`);
      }
    }
  }
  const reserved = shared.reserved === undefined ? {} : { reserved: shared.reserved };
  const invalidAttempt: Counted = { admitted: counted, invalid: counts !== undefined, ...reserved };
  const parsed = parseArguments(call.arguments, policy.argumentLimits);
  if (!parsed.ok) {
    if (counts !== undefined) increment(counts.invalidPerTool, name);
    return reject(call, invalidAttempt, {
      toolName: name,
      code: parsed.code,
      text: [parsed.message],
    });
  }
  let validated: ValidationOutcome<unknown>;
  try {
    validated = await tool.validateInput(parsed.value);
  } catch (error) {
    return reject(
      call,
      { admitted: counted, invalid: false, ...reserved },
      {
        toolName: name,
        code: 'INTERNAL_ERROR',
        text: [`Tool '${name}' failed with an internal error; do not repeat this call.`],
        errorClass: 'fatal',
        error,
      },
    );
  }
  if (!validated.ok) {
    if (counts !== undefined) increment(counts.invalidPerTool, name);
    return reject(call, invalidAttempt, {
      toolName: name,
      code: 'INVALID_ARGUMENTS',
      text: [
        `The arguments do not match the schema of tool '${name}': `,
        ...issueParts(validated.issues, parsed.value),
        '. Fix them and call again.',
      ],
    });
  }
  return { type: 'ready', call, tool, args: validated.value, admitted: counted, invalid: false, ...shared };
}

/** What the model is told when the store that counts calls fails: the tool did not run, and may later. */
const STORE_UNAVAILABLE_TEXT = (name: string) =>
  `Tool '${name}' is unavailable right now; the call was not run. Do not assume it ran; answer with what you have or try again later.`;

const NOT_COUNTED: Counted = { admitted: false, invalid: false };

/** A refusal: the model's fault (`invalid-input`) unless the detail says otherwise. */
function reject(
  call: ToolCall,
  counted: Counted,
  detail: Pick<RejectedCall, 'toolName' | 'code' | 'text'> &
    Partial<Pick<RejectedCall, 'limit' | 'availableTools' | 'errorClass' | 'error' | 'storeFailed'>>,
): RejectedCall {
  return { type: 'rejected', call, errorClass: 'invalid-input', ...counted, ...detail };
}
