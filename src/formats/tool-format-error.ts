import { ToolwardenError } from '../core/errors/toolwarden-error.js';
import { sanitizeName } from '../redact/redact.js';

const MARKER = Symbol.for('toolwarden.error.ToolFormatError');

/** The formats toolwarden reads and writes tool definitions in. */
export type ToolFormat = 'openai' | 'anthropic' | 'mcp' | 'bfcl';

const FORMAT_LABELS: Readonly<Record<ToolFormat, string>> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  mcp: 'MCP',
  bfcl: 'BFCL',
};

/** What a `ToolFormatError` is made of. */
export interface ToolFormatErrorOptions {
  /** The format being read or written. */
  format: ToolFormat;
  /** The tool's name as given, if any: it is shown escaped and shortened. */
  toolName?: unknown;
  /** Where in the definition the problem is, as a dotted path (`function.parameters`); '' for the whole. */
  path: string;
  /** What is wrong and how to fix it, as a sentence. */
  problem: string;
  /** The error underneath, when there was one. */
  cause?: unknown;
}

/**
 * A tool definition in a provider's format (OpenAI, Anthropic, MCP, BFCL) cannot be imported or exported:
 * the caller's definitions are to blame. The message names the format, the tool and the path.
 */
export class ToolFormatError extends ToolwardenError<'TOOL_FORMAT_INVALID'> {
  override readonly name = 'ToolFormatError';
  /** The format being read or written. */
  readonly format: ToolFormat;
  /** The tool's name, escaped and cut to 64 characters ('' when it had none). */
  readonly toolName: string;
  /** Where in the definition the problem is, as a dotted path ('' for the whole). */
  readonly path: string;
  /** The sentence that says what is wrong, without the tool and path. */
  readonly problem: string;
  readonly [MARKER] = true;

  constructor({ format, toolName, path, problem, cause }: ToolFormatErrorOptions) {
    const shown = typeof toolName === 'string' && toolName !== '' ? sanitizeName(toolName) : '';
    const subject =
      shown === '' ? `${FORMAT_LABELS[format]} tool` : `${FORMAT_LABELS[format]} tool "${shown}"`;
    super({
      code: 'TOOL_FORMAT_INVALID',
      message: `${subject}${path === '' ? '' : ` (${path})`}: ${problem}`,
      cause,
    });
    this.format = format;
    this.toolName = shown;
    this.path = path;
    this.problem = problem;
  }

  static override isInstance(value: unknown): value is ToolFormatError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
