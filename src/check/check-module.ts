import {
  type CheckReport,
  createCheckReport,
  type StrictMode,
  type ToolCheck,
  withModuleFindings,
} from './check-report.js';
import { checkToolsWithProgress } from './check-tools.js';
import type { CollectedTools } from './collect-tools.js';
import { loadTools } from './load-tools.js';
import { describeThrown } from './preview-value.js';
import { ToolModuleError, type ToolModuleProblem } from './tool-module-error.js';

/** What to check: plain data, sent to the process that checks it. */
export interface CheckModuleRequest {
  /** The module as the user named it, relative to `cwd`. */
  readonly modulePath: string;
  readonly cwd: string;
  readonly timeoutMs?: number;
  readonly runWrites: boolean;
  readonly strict?: StrictMode;
}

/** What the check says while it runs, in order. Plain JSON, to cross a process boundary. */
export type CheckModuleProgress =
  /** The module loaded and holds `tools` tools: the checks start. */
  | { readonly type: 'loaded'; readonly tools: number }
  /** An example of `tool` is about to be checked. */
  | { readonly type: 'example'; readonly tool: string; readonly example: string }
  /** A tool's check is complete. */
  | { readonly type: 'tool'; readonly check: ToolCheck }
  /** Tool code failed outside any example (an unhandled rejection, a throwing timer): what it threw. */
  | { readonly type: 'stray'; readonly error: string };

/** How the check ended: its report, or why the module could not be loaded. */
export type CheckModuleEnd =
  | { readonly type: 'done'; readonly report: CheckReport }
  | { readonly type: 'load-failed'; readonly problem: ToolModuleProblem; readonly message: string };

/**
 * Loads a tools module and checks its tools in this process (`checkTools`), telling `progress` how far
 * it got. Returns the report, or why the module could not be loaded; a `defineTool` call that threw at
 * import is a report with the module failed. Stray errors are the caller's to catch (see
 * `catchStrayErrors`); a hang is the caller's to stop.
 */
export async function checkModule(
  request: CheckModuleRequest,
  progress: (event: CheckModuleProgress) => void,
): Promise<CheckModuleEnd> {
  const { modulePath } = request;
  let collected: CollectedTools;
  try {
    collected = await loadTools(modulePath, request.cwd);
  } catch (error) {
    if (!ToolModuleError.isInstance(error)) {
      return { type: 'load-failed', problem: 'import-failed', message: describeThrown(error) };
    }
    if (error.problem !== 'definition-invalid') {
      return { type: 'load-failed', problem: error.problem, message: error.message };
    }
    const report = createCheckReport({
      module: modulePath,
      tools: [],
      moduleFindings: [
        {
          severity: 'error',
          code: 'DEFINITION_INVALID',
          message: `a defineTool call threw while the module loaded, so none of its tools can be checked: ${error.message} (export the definition object instead, and the check reports each tool)`,
        },
      ],
    });
    return { type: 'done', report };
  }
  progress({ type: 'loaded', tools: collected.targets.length });
  const report = await checkToolsWithProgress(
    collected.targets,
    {
      module: modulePath,
      exportNames: collected.exportNames,
      runWrites: request.runWrites,
      ...(request.strict === undefined ? {} : { strict: request.strict }),
      ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    },
    {
      exampleStarting: (tool, example) => progress({ type: 'example', tool, example }),
      toolChecked: (check) => progress({ type: 'tool', check }),
    },
  );
  const unreadable = collected.unreadable.map(({ name, reason }) => ({
    severity: 'warning' as const,
    code: 'EXPORT_UNREADABLE' as const,
    message: `the export ${name} cannot be read, so it was not checked: ${reason}`,
  }));
  return { type: 'done', report: withModuleFindings(report, unreadable) };
}
