import { ToolwardenError } from '../../../core/errors/toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ProxyConfigError');

/**
 * `toolwarden mcp-proxy`'s config is invalid: the caller is to blame. The message lists every problem, one
 * a line, so a bad config is fixed in one pass rather than one error at a time.
 */
export class ProxyConfigError extends ToolwardenError<'PROXY_CONFIG_INVALID'> {
  override readonly name = 'ProxyConfigError';
  readonly source: string;
  /** Every problem found, in document order: where (a JSON path such as `$.limits.perTool`) and what. */
  readonly problems: readonly { readonly path: string; readonly message: string }[];
  readonly omitted: number;
  readonly [MARKER] = true;

  constructor({
    source,
    problems,
    omitted = 0,
  }: {
    /** The file (or other source) the config came from, as the user named it. */
    readonly source: string;
    /** Every problem found, in document order (bounded: see `omitted`). */
    readonly problems: ProxyConfigError['problems'];
    /** Problems found beyond those listed (a hostile file can hold millions). */
    readonly omitted?: number;
  }) {
    const count = problems.length + omitted;
    const lines = problems.map((problem) => `  ${problem.path}: ${problem.message}`);
    if (omitted > 0) lines.push(`  … and ${omitted} more`);
    super({
      code: 'PROXY_CONFIG_INVALID',
      message: `Invalid config ${source} (${count} ${count === 1 ? 'problem' : 'problems'}):\n${lines.join('\n')}`,
    });
    this.source = source;
    this.problems = problems;
    this.omitted = omitted;
  }

  static override isInstance(value: unknown): value is ProxyConfigError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}

/** One thing wrong with a config file: where (a JSON path such as `$.limits.perTool`) and what. */
export type ConfigProblem = ProxyConfigError['problems'][number];
