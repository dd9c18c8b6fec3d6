import type { ToolCall } from '../messages/message.js';
import { sanitizeName } from '../redact/redact.js';
import type { ValidationOutcome } from '../schema/validation-issue.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { perToolLimitMessage, totalLimitMessage } from './call-limits.js';
import type { ErrorClass } from './error-class.js';
import type { ResolvedPolicy } from './execution-policy.js';
import { formatIssues } from './format-tool-error.js';
import { parseArguments } from './parse-arguments.js';
import type { ToolErrorCode } from './tool-execution-result.js';
import { increment, type TurnCounts } from './turn-counts.js';

/** A call that may run now, with arguments that passed the tool's schema. */
export interface ReadyCall {
  readonly type: 'ready';
  readonly call: ToolCall;
  readonly tool: AnyTool;
  readonly args: unknown;
}

/** A call refused before its tool ran: the model is told why. */
export interface RejectedCall {
  readonly type: 'rejected';
  readonly call: ToolCall;
  readonly toolName: string;
  readonly code: ToolErrorCode;
  readonly errorClass: ErrorClass;
  readonly message: string;
  readonly limit?: { readonly scope: 'per-tool' | 'total'; readonly limit: number };
  readonly availableTools?: readonly string[];
  /** The original failure, when there was one (a validator that threw). */
  readonly error?: unknown;
}

export type PreparedCall = ReadyCall | RejectedCall;

/**
 * Decides, in the model's order, what happens to one call before anything runs: look the tool up, check
 * the turn's limits and failed attempts, parse and validate the arguments. `counts` is this execution's
 * own copy and is updated here, so the decisions are the same whatever order the calls later finish in.
 */
export function prepareToolCall(
  call: ToolCall,
  registry: ToolRegistry,
  counts: TurnCounts,
  policy: ResolvedPolicy,
): PreparedCall | Promise<PreparedCall> {
  const rawName: unknown = call.name;
  const tool = typeof rawName === 'string' ? registry.get(rawName) : undefined;
  if (tool === undefined) {
    const shown = sanitizeName(String(rawName));
    const available = registry.names();
    return reject(call, shown, 'UNKNOWN_TOOL', {
      message: `No tool named '${shown}'. Available tools: ${available.join(', ') || '(none)'}.`,
      availableTools: available,
    });
  }
  const name = tool.name;
  const counted = !policy.limits.isExcluded(name);
  if (counted) {
    const limit = policy.limits.limitFor(tool);
    if ((counts.perTool.get(name) ?? 0) >= limit) {
      return reject(call, name, 'TOOL_CALL_LIMIT', {
        message: perToolLimitMessage(limit, name),
        limit: { scope: 'per-tool', limit },
      });
    }
    if (counts.total >= policy.limits.total) {
      return reject(call, name, 'TOOL_CALL_LIMIT', {
        message: totalLimitMessage(policy.limits.total),
        limit: { scope: 'total', limit: policy.limits.total },
      });
    }
  }
  const invalid = counts.invalidPerTool.get(name) ?? 0;
  if (invalid >= policy.maxInvalidAttempts) {
    return reject(call, name, 'TOO_MANY_INVALID_ATTEMPTS', {
      message: `Tool '${name}' was called with invalid arguments ${invalid} times in this turn; it will not be tried again. Answer with what you have or use another tool.`,
    });
  }
  if (counted) {
    increment(counts.perTool, name);
    counts.total++;
  }

  const parsed = parseArguments(call.arguments, policy.argumentLimits);
  if (!parsed.ok) {
    increment(counts.invalidPerTool, name);
    return reject(call, name, parsed.code, { message: parsed.message });
  }
  let validated: ReturnType<AnyTool['validateInput']>;
  try {
    validated = tool.validateInput(parsed.value);
  } catch (error) {
    return validatorFailed(call, name, error);
  }
  if (validated instanceof Promise) {
    return validated.then(
      (outcome) => afterValidation(call, tool, counts, outcome),
      (error: unknown) => validatorFailed(call, name, error),
    );
  }
  return afterValidation(call, tool, counts, validated);
}

function afterValidation(
  call: ToolCall,
  tool: AnyTool,
  counts: TurnCounts,
  validated: ValidationOutcome<unknown>,
): PreparedCall {
  if (!validated.ok) {
    increment(counts.invalidPerTool, tool.name);
    return reject(call, tool.name, 'INVALID_ARGUMENTS', {
      message: `The arguments do not match the schema of tool '${tool.name}': ${formatIssues(validated.issues)}. Fix them and call again.`,
    });
  }
  return { type: 'ready', call, tool, args: validated.value };
}

function validatorFailed(call: ToolCall, name: string, error: unknown): RejectedCall {
  return {
    ...reject(call, name, 'INTERNAL_ERROR', { message: `Tool '${name}' failed with an internal error.` }),
    errorClass: 'fatal',
    error,
  };
}

function reject(
  call: ToolCall,
  toolName: string,
  code: ToolErrorCode,
  detail: Pick<RejectedCall, 'message'> & Partial<Pick<RejectedCall, 'limit' | 'availableTools'>>,
): RejectedCall {
  return { type: 'rejected', call, toolName, code, errorClass: 'invalid-input', ...detail };
}
