import type { CheckModuleProgress } from '../check/check-module.js';
import {
  type CheckFinding,
  type CheckReport,
  createCheckReport,
  type ToolCheck,
  withModuleFindings,
} from '../check/check-report.js';
import { renderCheckJson } from '../check/render-check-json.js';
import { renderCheckJunit } from '../check/render-check-junit.js';
import { renderCheckText } from '../check/render-check-text.js';
import { stripTerminalEscapes } from '../util/strip-terminal-escapes.js';
import type { CheckLimits, CheckRunEnd } from './run-check-in-child.js';

/**
 * The exit codes of `toolwarden check`. 0 and 1 are the verdict; 2 is a usage error, as for every
 * command; 3 and 4 say the check could not give one. (`toolwarden run` has codes of its own from 3 up.)
 */
export const CHECK_EXIT_CODES = {
  /** No failure: warnings and skipped examples allowed. */
  passed: 0,
  /** A tool or the module failed the check. */
  failed: 1,
  /** Bad arguments, or the module path names no file. */
  usage: 2,
  /** The module could not be loaded: it threw, exports no tools, is a thenable, its import never settles. */
  notLoaded: 3,
  /** The import, or an example, ran past its hard limit: the process running it was stopped. */
  timedOut: 4,
} as const;

export type CheckFormat = 'text' | 'json' | 'junit';

export interface CheckCommandOutcome {
  readonly exitCode: number;
  /** The report, in its format (empty when there is none). */
  readonly stdout: string;
  /** Why there is no verdict (empty when there is one). */
  readonly stderr: string;
}

/**
 * What `toolwarden check` prints and returns, from what the check said (`progress`) and how it ended: a
 * report, or why the module could not be loaded, or where it stopped (then the tools checked until then
 * are the report). Text from the module (tool names, example labels) is stripped of terminal escapes.
 */
export function checkCommandOutcome(parts: {
  readonly modulePath: string;
  readonly format: CheckFormat;
  readonly limits: CheckLimits;
  /** Each step of an example had this long (`--timeout-ms`). */
  readonly timeoutMs: number;
  readonly progress: readonly CheckModuleProgress[];
  readonly end: CheckRunEnd;
}): CheckCommandOutcome {
  const { modulePath, format, limits, end } = parts;
  const { toolCount, running, tools, strays } = readProgress(parts.progress);
  const noVerdict = (exitCode: number, reason: string): CheckCommandOutcome => ({
    exitCode,
    stdout: '',
    stderr: `toolwarden check: ${plain(reason)}\n${strays.map((f) => `toolwarden check: also, ${f.message}\n`).join('')}`,
  });
  // Cut short after the import: the tools checked until then are the report.
  const cutShort = (exitCode: number, what: string): CheckCommandOutcome => {
    const left = (toolCount ?? 0) - tools.length - (running === undefined ? 0 : 1);
    const message = `${what}; ${
      running === undefined
        ? `${left} of the module's ${toolCount ?? 0} tools ${left === 1 ? 'was' : 'were'} not checked`
        : left === 0
          ? `${running.tool} was not checked`
          : `${running.tool} and the ${left} ${left === 1 ? 'tool' : 'tools'} after it were not checked`
    }`;
    const report = createCheckReport({
      module: modulePath,
      tools,
      moduleFindings: [{ severity: 'error', code: 'CHECK_INCOMPLETE', message }, ...strays],
    });
    const prefix = exitCode === CHECK_EXIT_CODES.timedOut ? 'timed out: ' : '';
    return { exitCode, stdout: render(report, format), stderr: `toolwarden check: ${prefix}${message}\n` };
  };
  switch (end.kind) {
    case 'finished': {
      if (end.end.type === 'load-failed') {
        const { problem, message } = end.end;
        return problem === 'not-found' || problem === 'not-a-file'
          ? noVerdict(CHECK_EXIT_CODES.usage, message)
          : noVerdict(CHECK_EXIT_CODES.notLoaded, `could not load: ${message}`);
      }
      const report = withModuleFindings(end.end.report, strays);
      const exitCode = report.status === 'fail' ? CHECK_EXIT_CODES.failed : CHECK_EXIT_CODES.passed;
      return { exitCode, stdout: render(report, format), stderr: '' };
    }
    case 'timed-out': {
      if (end.during === 'start') {
        return noVerdict(
          CHECK_EXIT_CODES.timedOut,
          `timed out: the process to load ${modulePath} in did not start within ${limits.startMs} ms`,
        );
      }
      if (toolCount === undefined) {
        return noVerdict(
          CHECK_EXIT_CODES.timedOut,
          `timed out: importing ${modulePath} did not finish within ${limits.loadMs} ms (a loop at import, or a top-level await that never settles); the process loading it was stopped. If it is only slow, raise --load-timeout-ms`,
        );
      }
      const where =
        running === undefined
          ? `the check did not get past ${tools.length === 0 ? 'defining the tools' : plain(tools[tools.length - 1]?.name ?? '')} within ${limits.stepMs} ms`
          : `example "${running.example}" of ${running.tool} did not finish within ${limits.stepMs} ms, though each of its steps had ${parts.timeoutMs} ms (--timeout-ms)`;
      return cutShort(
        CHECK_EXIT_CODES.timedOut,
        `${where}: a synchronous loop, which no timer can interrupt? The process running it was stopped`,
      );
    }
    case 'failed': {
      if (toolCount === undefined) {
        return noVerdict(
          CHECK_EXIT_CODES.notLoaded,
          `could not load: importing ${modulePath} did not finish: ${end.reason}`,
        );
      }
      const during = running === undefined ? '' : ` during example "${running.example}" of ${running.tool}`;
      return cutShort(CHECK_EXIT_CODES.failed, `the check ended${during}: ${end.reason}`);
    }
    default: {
      const unreachable: never = end;
      throw new TypeError(`unknown end ${String(unreachable)}`);
    }
  }
}

interface ProgressSeen {
  /** The module's tools, once it loaded. */
  readonly toolCount: number | undefined;
  /** The example started last, unless its tool's check completed since. */
  readonly running: { readonly tool: string; readonly example: string } | undefined;
  /** The tools checked, in order. */
  readonly tools: readonly ToolCheck[];
  /** What tool code threw outside any example, as findings saying when. */
  readonly strays: readonly CheckFinding[];
}

function readProgress(progress: readonly CheckModuleProgress[]): ProgressSeen {
  let toolCount: number | undefined;
  let running: { tool: string; example: string } | undefined;
  let lastExample: { tool: string; example: string } | undefined;
  const tools: ToolCheck[] = [];
  const strays: CheckFinding[] = [];
  for (const event of progress) {
    switch (event.type) {
      case 'loaded':
        toolCount = event.tools;
        break;
      case 'example':
        running = { tool: plain(event.tool), example: plain(event.example) };
        lastExample = running;
        break;
      case 'tool':
        tools.push(event.check);
        running = undefined;
        break;
      case 'stray': {
        const when =
          lastExample !== undefined
            ? `after example "${lastExample.example}" of ${lastExample.tool} started`
            : toolCount === undefined
              ? 'while the module loaded'
              : 'before any example started';
        strays.push({
          severity: 'error',
          code: 'UNCAUGHT_ERROR',
          message: `tool code threw outside any example (an unhandled rejection or a throwing callback), ${when}: ${event.error}`,
        });
        break;
      }
      default: {
        const unreachable: never = event;
        throw new TypeError(`unknown progress ${String(unreachable)}`);
      }
    }
  }
  return { toolCount, running, tools, strays };
}

function plain(text: string): string {
  return stripTerminalEscapes(text);
}

function render(report: CheckReport, format: CheckFormat): string {
  switch (format) {
    case 'text':
      return renderCheckText(report);
    case 'json':
      return renderCheckJson(report);
    case 'junit':
      return renderCheckJunit(report);
    default: {
      const unreachable: never = format;
      throw new TypeError(`unknown format ${String(unreachable)}`);
    }
  }
}
