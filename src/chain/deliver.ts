import { ContractViolationError } from '../core/errors/contract-violation-error.js';
import { ResultSerializationError } from '../core/errors/result-serialization-error.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { ValidationOutcome } from '../core/validation-issue.js';
import { serializeValue } from '../serialize/serialize-value.js';
import { truncateText } from '../serialize/truncate-text.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { RunContext, RunningCall } from './run-context.js';
import { toolFailure } from './tool-failure.js';

export interface Delivery {
  readonly tool: AnyTool;
  readonly call: RunningCall;
  readonly context: RunContext;
  /** The attempt that produced the value. */
  readonly attempt: number;
}

/**
 * Turns a tool's returned value into what the model sees: check the output contract (when the tool
 * declares one), format (the tool's formatter, or deterministic JSON), truncate. Never rejects: a
 * validator or formatter that throws is a fatal failure of the call.
 */
export async function deliverResult(delivery: Delivery, value: unknown): Promise<ToolCallResult> {
  const validate = delivery.tool.validateOutput;
  if (validate === undefined) return render(delivery, value);
  let outcome: ValidationOutcome<unknown>;
  try {
    outcome = await validate(value);
  } catch (error) {
    return fail(delivery, error, 'fatal');
  }
  if (outcome.ok) return render(delivery, value);
  const { tool, call, context } = delivery;
  const policy = context.policy.contractPolicyFor(tool);
  context.events.emit({
    type: 'contract-warn',
    ...call.base,
    argumentsSummary: call.argumentsSummary,
    policy,
    issues: outcome.issues,
    ...(context.events.includeContent ? { value } : {}),
  });
  switch (policy) {
    case 'warn':
      return { ...render(delivery, value), contractViolation: true };
    case 'feedback':
    case 'throw': {
      const error = new ContractViolationError({ toolName: tool.name, issues: outcome.issues, value });
      return {
        ...fail(delivery, error, policy === 'throw' ? 'fatal' : 'invalid-input'),
        contractViolation: true,
      };
    }
    default: {
      const unreachable: never = policy;
      throw new TypeError(`unknown contract policy ${String(unreachable)}`);
    }
  }
}

function render(delivery: Delivery, value: unknown): ToolCallResult {
  const { tool, call, context } = delivery;
  let text: string;
  if (tool.formatResult !== undefined) {
    try {
      text = tool.formatResult(value);
      if (typeof text !== 'string') throw new TypeError(`formatResult returned ${typeof text}, not a string`);
    } catch (error) {
      return fail(delivery, error, 'fatal');
    }
  } else {
    const serialized = serializeValue(value);
    if (!serialized.ok) {
      const error = new ResultSerializationError({
        toolName: tool.name,
        reason: serialized.reason,
        path: serialized.path,
        message: `Tool "${tool.name}" returned a value that cannot be serialized: ${serialized.message}`,
      });
      return fail(delivery, error, 'fatal');
    }
    text = serialized.text;
  }
  const maxChars = context.policy.maxResultCharsFor(tool);
  const shown = text.length <= maxChars ? undefined : truncateText(text, maxChars);
  return {
    type: 'success',
    toolCallId: call.base.toolCallId,
    toolName: call.base.toolName,
    content: shown === undefined ? text : shown.text,
    value,
    truncated: shown?.truncated === true,
    attempts: delivery.attempt,
    durationMs: context.now() - call.started,
  };
}

function fail(delivery: Delivery, error: unknown, errorClass: 'fatal' | 'invalid-input'): ToolCallResult {
  const { call, context } = delivery;
  return toolFailure({
    base: call.base,
    error,
    errorClass,
    attempts: delivery.attempt,
    durationMs: context.now() - call.started,
    sent: call.arguments,
  });
}
