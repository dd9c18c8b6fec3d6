import { ToolwardenError } from '../core/errors/toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ToolModuleError');

/**
 * Why a tools module could not be checked: `not-found` (no such file), `not-a-file`, `needs-tsx` (a
 * TypeScript module without a TypeScript loader), `import-failed` (it threw while loading),
 * `definition-invalid` (a `defineTool` call threw while loading: the module's tools are broken, which is
 * a failed check rather than a usage error), `thenable` (it exports a function named `then`, so importing
 * it waits on that function), `never-settles` (its import waits on something that can never settle),
 * `timed-out` (its import did not settle in time), `no-tools` (it exports nothing to check).
 */
export type ToolModuleProblem =
  | 'not-found'
  | 'not-a-file'
  | 'needs-tsx'
  | 'import-failed'
  | 'definition-invalid'
  | 'thenable'
  | 'never-settles'
  | 'timed-out'
  | 'no-tools';

export interface ToolModuleErrorOptions {
  /** The module as the user named it. */
  modulePath: string;
  problem: ToolModuleProblem;
  message: string;
  cause?: unknown;
}

/** A tools module could not be loaded or holds no tools: the caller's configuration is to blame. */
export class ToolModuleError extends ToolwardenError<'TOOL_MODULE_UNUSABLE'> {
  override readonly name = 'ToolModuleError';
  readonly modulePath: string;
  readonly problem: ToolModuleProblem;
  readonly [MARKER] = true;

  constructor({ modulePath, problem, message, cause }: ToolModuleErrorOptions) {
    super({ code: 'TOOL_MODULE_UNUSABLE', message, cause });
    this.modulePath = modulePath;
    this.problem = problem;
  }

  static override isInstance(value: unknown): value is ToolModuleError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
