import { DEFAULT_MAX_ISSUE_MESSAGE_CHARS } from '../core/defaults.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import { argumentStrings } from './argument-strings.js';
import { reportedIssues } from './format-tool-error.js';
import { argumentPath, foreign, type ModelTextPart } from './model-text.js';

/**
 * Validation issues as the model reads them: `path: problem` pairs, the paths kept (each key redacted), each
 * problem a foreign text (a schema library wrote it: Ajv, zod, valibot, a custom message) with the values the
 * model sent at that path withheld, then redacted and cut.
 */
export function issueParts(issues: readonly ValidationIssue[], args: unknown): ModelTextPart[] {
  const { shown, more } = reportedIssues(issues);
  const parts: ModelTextPart[] = [];
  for (const [index, issue] of shown.entries()) {
    if (index > 0) parts.push('; ');
    parts.push(
      argumentPath(issue.path),
      ': ',
      foreign(issue.message, DEFAULT_MAX_ISSUE_MESSAGE_CHARS, argumentStrings(args, issue.path)),
    );
  }
  if (more > 0) parts.push(`; and ${more} more`);
  return parts;
}
