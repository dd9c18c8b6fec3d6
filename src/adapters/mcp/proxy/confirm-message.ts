import { DEFAULT_PROXY_CONFIRM_PREVIEW_CHARS } from '../../../core/defaults.js';
import { sanitizeName } from '../../../redact/redact.js';

/**
 * What the user is asked before a tool runs (MCP: clients SHOULD show tool inputs before calling): the
 * tool's name and its arguments as JSON, cut to `DEFAULT_PROXY_CONFIRM_PREVIEW_CHARS`. Shown to the user,
 * not the model, so the arguments are not redacted: the user decides on what will actually run.
 */
export function confirmMessage(name: string, args: unknown): string {
  let shown: string;
  try {
    shown = JSON.stringify(args ?? {}, null, 2) ?? '{}';
  } catch {
    shown = '(arguments too deep to show)';
  }
  if (shown.length > DEFAULT_PROXY_CONFIRM_PREVIEW_CHARS)
    shown = `${shown.slice(0, DEFAULT_PROXY_CONFIRM_PREVIEW_CHARS)}… (${shown.length} characters)`;
  return `Allow the tool "${sanitizeName(name, 128)}" to run with these arguments?\n${shown}`;
}
