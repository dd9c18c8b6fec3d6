import { ToolwardenError } from '../../core/errors/toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.GatewayConfigError');

/**
 * `toolwarden gateway`'s config is invalid: the caller is to blame. The message lists every problem, one a
 * line (`$.limits.perTool: must be an integer >= 1, got 0`), so a bad config is fixed in one pass.
 */
export class GatewayConfigError extends ToolwardenError<'GATEWAY_CONFIG_INVALID'> {
  override readonly name = 'GatewayConfigError';
  readonly source: string;
  /** Every problem found, in document order: where (a JSON path) and what. */
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
    readonly problems: GatewayConfigError['problems'];
    /** Problems found beyond those listed. */
    readonly omitted?: number;
  }) {
    const count = problems.length + omitted;
    const lines = problems.map((problem) => `  ${problem.path}: ${problem.message}`);
    if (omitted > 0) lines.push(`  … and ${omitted} more`);
    super({
      code: 'GATEWAY_CONFIG_INVALID',
      message: `Invalid gateway config ${source} (${count} ${count === 1 ? 'problem' : 'problems'}):\n${lines.join('\n')}`,
    });
    this.source = source;
    this.problems = problems;
    this.omitted = omitted;
  }

  static override isInstance(value: unknown): value is GatewayConfigError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
