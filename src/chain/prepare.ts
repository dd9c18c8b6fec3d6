import type { ErrorClass } from '../core/error-class.js';
import type { ToolCall } from '../core/message.js';
import type { ArgumentsIdentity } from '../core/tool-event.js';
import type { ToolErrorCode } from '../core/tool-execution-result.js';
import type { ValidationOutcome } from '../core/validation-issue.js';
import { issueParts } from '../gate/issue-text.js';
import type { ModelTextPart } from '../gate/model-text.js';
import { unknownToolText } from '../gate/unknown-tool-text.js';
import { sanitizeName } from '../redact/redact.js';
import { canonicalArguments } from '../serialize/canonical-json.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { canonicalDigest } from './arguments-digest.js';
import type { LimitScope } from './call-limits.js';
import {
  admitCall,
  admitShared,
  type Counted,
  increment,
  type ReservationScope,
  type SharedCounter,
  type TurnCounts,
} from './limits.js';
import { parseArguments } from './parse-arguments.js';
import type { ResolvedPolicy } from './policy.js';

/**
 * Who a call is, for every stage that compares or records calls (shared reads, idempotency records, the
 * audit's digest): its arguments in canonical form (`canonicalArguments`) and the digest of its tool and
 * arguments (`argumentsDigest`). Made once per call here; each is worked out on first use and kept, so a
 * call no stage compares pays for neither.
 */
export class CallIdentity implements ArgumentsIdentity {
  // Private: the events carry the identity, and the arguments must not reach a log through it.
  readonly #toolName: string;
  readonly #rawArguments: string;
  #canonical: string | undefined;
  #digest: string | undefined;

  /** The identity of a call to `toolName` with the argument text `rawArguments` (as the model sent it). */
  constructor(toolName: string, rawArguments: string) {
    this.#toolName = toolName;
    this.#rawArguments = rawArguments;
  }

  /** The arguments in canonical form: keys sorted, whitespace between tokens dropped. */
  get canonical(): string {
    this.#canonical ??= canonicalArguments(this.#rawArguments);
    return this.#canonical;
  }

  /** The SHA-256 (hex) of the tool name and the canonical arguments: what approvals and audits bind to. */
  get digest(): string {
    this.#digest ??= canonicalDigest(this.#toolName, this.canonical);
    return this.#digest;
  }

  /** What an event written as JSON shows of the call: its digest. */
  toJSON(): ArgumentsIdentity {
    return { digest: this.digest };
  }
}

/** A call that may run now, with arguments that passed the tool's schema. */
export interface ReadyCall extends Counted {
  readonly type: 'ready';
  readonly call: ToolCall;
  readonly identity: CallIdentity;
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
  readonly identity?: CallIdentity;
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

/** A call after `prepareToolCall`: ready to run, or refused. */
export type PreparedCall = ReadyCall | RejectedCall;

/** What preparing a call looks at. */
export interface PrepareContext {
  readonly registry: ToolRegistry;
  readonly policy: ResolvedPolicy;
  /** The turn's counts, updated here; undefined: no turn limits apply. */
  readonly counts: TurnCounts | undefined;
  /** The session and turn whose limits are shared through the store. */
  readonly scope?: ReservationScope | undefined;
}

/**
 * Decides, in the model's order, what happens to one call before anything runs: look the tool up, admit
 * it under the limits (`admitCall`, then `admitShared` with a session), parse and validate the arguments.
 * `counts` is this execution's own and is updated here, so the decisions are the same whatever order the
 * calls later finish in. Never rejects: a validator that throws refuses the call as a fatal failure.
 */
export async function prepareToolCall(call: ToolCall, context: PrepareContext): Promise<PreparedCall> {
  const { registry, policy, counts } = context;
  const tool = registry.get(call.name);
  if (tool === undefined) {
    const available = registry.names();
    const toolName = sanitizeName(call.name);
    return reject(call, NOT_COUNTED, {
      toolName,
      code: 'UNKNOWN_TOOL',
      text: unknownToolText(call.name, available),
      availableTools: available,
    });
  }
  const name = tool.name;
  const turn = admitCall(tool, context);
  const { scope } = context;
  const admission =
    turn.type === 'refused' || scope === undefined
      ? turn
      : await admitShared(tool, turn, { ...context, scope });
  if (admission.type === 'refused') {
    const { type: _type, ...refusal } = admission;
    return reject(call, NOT_COUNTED, { toolName: name, ...refusal });
  }
  const { admitted, reserved, storeFailure, deferredCounters } = admission;
  /** What a refused call keeps counted: an invalid attempt counts toward the turn's invalid attempts. */
  const kept = (invalid: boolean): Counted =>
    reserved === undefined ? { admitted, invalid } : { admitted, invalid, reserved };
  const parsed = parseArguments(call.arguments, policy.argumentLimits);
  if (!parsed.ok) {
    if (counts !== undefined) increment(counts.invalidPerTool, name);
    return reject(call, kept(counts !== undefined), {
      toolName: name,
      code: parsed.code,
      text: [parsed.message],
    });
  }
  let validated: ValidationOutcome<unknown>;
  try {
    validated = await tool.validateInput(parsed.value);
  } catch (error) {
    return reject(call, kept(false), {
      toolName: name,
      code: 'INTERNAL_ERROR',
      text: [`Tool '${name}' failed with an internal error; do not repeat this call.`],
      errorClass: 'fatal',
      error,
    });
  }
  if (!validated.ok) {
    if (counts !== undefined) increment(counts.invalidPerTool, name);
    return reject(call, kept(counts !== undefined), {
      toolName: name,
      code: 'INVALID_ARGUMENTS',
      text: [
        `The arguments do not match the schema of tool '${name}': `,
        ...issueParts(validated.issues, parsed.value),
        '. Fix them and call again.',
      ],
    });
  }
  const ready: ReadyCall = {
    type: 'ready',
    call,
    identity: new CallIdentity(name, call.arguments),
    tool,
    args: validated.value,
    admitted,
    invalid: false,
  };
  if (reserved === undefined && storeFailure === undefined && deferredCounters === undefined) return ready;
  return {
    ...ready,
    ...(reserved === undefined ? {} : { reserved }),
    ...(storeFailure === undefined ? {} : { storeFailure }),
    ...(deferredCounters === undefined ? {} : { deferredCounters }),
  };
}

const NOT_COUNTED: Counted = { admitted: false, invalid: false };

/** A refusal: the model's fault (`invalid-input`) unless the detail says otherwise. */
function reject(
  call: ToolCall,
  counted: Counted,
  detail: Pick<RejectedCall, 'toolName' | 'code' | 'text'> &
    Partial<Pick<RejectedCall, 'limit' | 'availableTools' | 'errorClass' | 'error' | 'storeFailed'>>,
): RejectedCall {
  return {
    type: 'rejected',
    call,
    identity: new CallIdentity(detail.toolName, call.arguments),
    errorClass: 'invalid-input',
    ...counted,
    ...detail,
  };
}
