import type { ValidationIssue } from '../validation-issue.js';
import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ContractViolationError');

/** A tool returned a result that breaks its own declared output contract. */
export class ContractViolationError extends ToolwardenError<'CONTRACT_VIOLATION'> {
  override readonly name = 'ContractViolationError';
  readonly toolName: string;
  readonly issues: readonly ValidationIssue[];
  readonly value: unknown;
  readonly [MARKER] = true;

  constructor({
    toolName,
    issues,
    value,
  }: {
    toolName: string;
    /** Where the result breaks the declared output schema, and how. */
    issues: readonly ValidationIssue[];
    /** The offending result, for developers only: the model never sees it. */
    value: unknown;
  }) {
    const where = issues
      .slice(0, 3)
      .map((issue) => `${issue.path || '/'} ${issue.message}`)
      .join('; ');
    super({
      code: 'CONTRACT_VIOLATION',
      message: `Tool "${toolName}" returned a result that breaks its output contract: ${where}`,
    });
    this.toolName = toolName;
    this.issues = issues;
    this.value = value;
  }

  static override isInstance(value: unknown): value is ContractViolationError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
