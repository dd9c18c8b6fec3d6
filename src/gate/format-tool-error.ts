import { DEFAULT_MAX_ARGUMENT_PATH_CHARS, DEFAULT_MAX_REPORTED_ISSUES } from '../core/defaults.js';
import type { ToolErrorCode } from '../core/tool-execution-result.js';
import type { ValidationIssue } from '../core/validation-issue.js';
import { type ModelTextPart, modelText } from './model-text.js';

/**
 * The text of a tool message that reports an error: a stable code, then a short text that leaves through
 * the gate (`modelText`: what is not toolwarden's own is redacted, the whole is bounded).
 */
export function formatToolError(code: ToolErrorCode, parts: readonly ModelTextPart[]): string {
  return `${code}: ${modelText(parts)}`;
}

/** The issues a report lists (sorted by path, at most `DEFAULT_MAX_REPORTED_ISSUES`) and how many more there are. */
export function reportedIssues(issues: readonly ValidationIssue[]): {
  readonly shown: readonly ValidationIssue[];
  readonly more: number;
} {
  const shown = [...issues]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, DEFAULT_MAX_REPORTED_ISSUES);
  return { shown, more: issues.length - shown.length };
}

/** Lists validation issues as `path: problem` for a developer's report (`toolwarden check`): not redacted. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  const { shown, more } = reportedIssues(issues);
  const listed = shown.map(
    (issue) =>
      `${issue.path === '' ? '/' : issue.path.slice(0, DEFAULT_MAX_ARGUMENT_PATH_CHARS)}: ${issue.message.slice(0, 160)}`,
  );
  return more > 0 ? `${listed.join('; ')}; and ${more} more` : listed.join('; ');
}
