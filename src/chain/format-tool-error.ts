import { DEFAULT_MAX_REPORTED_ISSUES } from '../defaults.js';
import type { ValidationIssue } from '../schema/validation-issue.js';
import type { ToolErrorCode } from './tool-execution-result.js';

/** The text of a tool message that reports an error: a stable code, then a short sentence. */
export function formatToolError(code: ToolErrorCode, message: string): string {
  return `${code}: ${message}`;
}

/** Lists validation issues as `path: problem`, never the values the model sent. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  const shown = [...issues]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, DEFAULT_MAX_REPORTED_ISSUES)
    .map((issue) => `${issue.path === '' ? '/' : issue.path.slice(0, 120)}: ${issue.message.slice(0, 160)}`);
  const more = issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}
