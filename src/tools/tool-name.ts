import { TOOL_NAME_PATTERN } from '../core/defaults.js';

/** Describes why a tool name is not legal for the providers, or returns undefined when it is. */
export function checkToolName(name: unknown): string | undefined {
  if (typeof name !== 'string') return `a tool name must be a string, got ${typeof name}`;
  if (name.length === 0) return 'a tool name must not be empty';
  if (name.length > 64) return `a tool name must be at most 64 characters, got ${name.length}`;
  if (!TOOL_NAME_PATTERN.test(name)) {
    return 'a tool name may contain only letters, digits, "_" and "-" (providers reject anything else)';
  }
  return undefined;
}
