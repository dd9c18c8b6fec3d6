import { ContractViolationError } from '../errors/contract-violation-error.js';
import { ResultSerializationError } from '../errors/result-serialization-error.js';
import type { ValidationOutcome } from '../schema/validation-issue.js';
import { serializeValue } from '../serialize/serialize-value.js';
import { truncateText } from '../serialize/truncate-text.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ResolvedPolicy } from './execution-policy.js';
import { emitTo } from './tool-event.js';
import type { ToolCallResult } from './tool-execution-result.js';
import { toolFailure } from './tool-failure.js';

export interface DeliveryContext {
  readonly tool: AnyTool;
  readonly base: { readonly toolCallId: string; readonly toolName: string };
  readonly policy: ResolvedPolicy;
  readonly argumentsSummary: string;
  /** Milliseconds since the call started. */
  elapsed(): number;
}

/**
 * Turns a tool's returned value into what the model sees: check the output contract (when the tool
 * declares one), format (the tool's formatter, or deterministic JSON), truncate. Synchronous unless the
 * output schema validates asynchronously.
 */
export function deliverResult(
  context: DeliveryContext,
  attempt: number,
  value: unknown,
): ToolCallResult | Promise<ToolCallResult> {
  const validate = context.tool.validateOutput;
  if (validate === undefined) return render(context, attempt, value);
  let outcome: ValidationOutcome<unknown> | Promise<ValidationOutcome<unknown>>;
  try {
    outcome = validate(value);
  } catch (error) {
    return toolFailure(context.base, error, 'fatal', attempt, context.elapsed());
  }
  return outcome instanceof Promise
    ? outcome.then(
        (settled) => afterContract(context, attempt, value, settled),
        (error: unknown) => toolFailure(context.base, error, 'fatal', attempt, context.elapsed()),
      )
    : afterContract(context, attempt, value, outcome);
}

function afterContract(
  context: DeliveryContext,
  attempt: number,
  value: unknown,
  outcome: ValidationOutcome<unknown>,
): ToolCallResult {
  if (outcome.ok) return render(context, attempt, value);
  const policy = context.policy.contractPolicyFor(context.tool);
  emitTo(context.policy.onEvent, {
    type: 'tool-call-contract-violation',
    ...context.base,
    argumentsSummary: context.argumentsSummary,
    policy,
    issues: outcome.issues,
    value,
  });
  switch (policy) {
    case 'warn':
      return render(context, attempt, value);
    case 'feedback':
    case 'throw': {
      const error = new ContractViolationError({
        toolName: context.tool.name,
        issues: outcome.issues,
        value,
      });
      return toolFailure(
        context.base,
        error,
        policy === 'throw' ? 'fatal' : 'invalid-input',
        attempt,
        context.elapsed(),
      );
    }
    default: {
      const unreachable: never = policy;
      throw new TypeError(`unknown contract policy ${String(unreachable)}`);
    }
  }
}

function render(context: DeliveryContext, attempt: number, value: unknown): ToolCallResult {
  const { tool } = context;
  let text: string;
  if (tool.formatResult !== undefined) {
    try {
      text = tool.formatResult(value);
      if (typeof text !== 'string') throw new TypeError(`formatResult returned ${typeof text}, not a string`);
    } catch (error) {
      return toolFailure(context.base, error, 'fatal', attempt, context.elapsed());
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
      return toolFailure(context.base, error, 'fatal', attempt, context.elapsed());
    }
    text = serialized.text;
  }
  const maxChars = context.policy.maxResultCharsFor(tool);
  const shown = text.length <= maxChars ? undefined : truncateText(text, maxChars);
  return {
    type: 'success',
    toolCallId: context.base.toolCallId,
    toolName: context.base.toolName,
    content: shown === undefined ? text : shown.text,
    value,
    truncated: shown?.truncated === true,
    attempts: attempt,
    durationMs: context.elapsed(),
  };
}
