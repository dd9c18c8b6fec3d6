import { DEFAULT_MAX_REPORTED_ISSUES } from '../core/defaults.js';
import { toJsonPointer } from '../core/validation-issue.js';

/** Issues looked at, at most, and the longest path kept. */
const MAX_ISSUES = 100;
const MAX_PATH_SEGMENTS = 64;

/**
 * The argument paths an error names, when it carries Standard Schema issues (a `ZodError` or a `ValiError`
 * thrown by a tool that checks its arguments itself): JSON Pointers, sorted, without duplicates, at most
 * `DEFAULT_MAX_REPORTED_ISSUES`. Only the paths: the issues' messages are of unknown provenance. Read without
 * trusting the error (getters that throw, proxies, revoked proxies, non-arrays): what cannot be read names no
 * path.
 */
export function errorArgumentPaths(error: unknown): string[] {
  if (typeof error !== 'object' || error === null) return [];
  const paths = new Set<string>();
  try {
    const issues: unknown = (error as { issues?: unknown }).issues;
    if (!Array.isArray(issues)) return [];
    const count = Math.min(issues.length, MAX_ISSUES);
    for (let index = 0; index < count; index++) {
      const path = pathOf(issues, index);
      if (path !== undefined && path !== '') paths.add(path);
    }
  } catch {
    // Issues that cannot even be listed name no path.
  }
  return [...paths].sort().slice(0, DEFAULT_MAX_REPORTED_ISSUES);
}

/** The path of one issue, or undefined when it has none or cannot be read. */
function pathOf(issues: readonly unknown[], index: number): string | undefined {
  try {
    const issue = issues[index];
    if (typeof issue !== 'object' || issue === null) return undefined;
    const path: unknown = (issue as { path?: unknown }).path;
    if (!Array.isArray(path) || path.length > MAX_PATH_SEGMENTS) return undefined;
    return toJsonPointer(path);
  } catch {
    return undefined;
  }
}
