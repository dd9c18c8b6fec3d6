import { parseArgs } from 'node:util';
import {
  type CheckFinding,
  type CheckReport,
  createCheckReport,
  type StrictMode,
  withModuleFindings,
} from '../check/check-report.js';
import { checkTools } from '../check/check-tools.js';
import { collectTools } from '../check/collect-tools.js';
import { loadToolModule } from '../check/load-tool-module.js';
import { describeThrown } from '../check/preview-value.js';
import { renderCheckJson } from '../check/render-check-json.js';
import { renderCheckJunit } from '../check/render-check-junit.js';
import { renderCheckText } from '../check/render-check-text.js';
import { ToolModuleError } from '../check/tool-module-error.js';
import { DEFAULT_EXAMPLE_TIMEOUT_MS, MAX_EXAMPLE_TIMEOUT_MS } from '../defaults.js';
import { argumentErrorMessage } from './argument-error-message.js';
import type { CommandIo } from './command-io.js';

export const CHECK_USAGE = `Usage: toolwarden check <module> [--json | --junit] [--timeout-ms <n>] [--run-writes] [--strict openai]

Loads <module> and checks every tool it exports (tools made by defineTool, their definitions, arrays
of them, a registry, or a default export holding them): the schemas compile, the name and description
are legal, the input schema's root is an object, and each declared example's input matches the input
schema and its expected output the output schema. The examples of read tools (effect: 'read') then run,
in this process: the result must keep the output contract and equal the expected output.

A tool whose effect is not 'read' (a write, an unknown effect) is never run unless asked: its examples
are reported as skipped ("write tool: its examples run only with --run-writes"), in every format. A
tool with neither an output schema nor examples is a warning (NOTHING_TO_CHECK), not a failure.

Options:
  --json            print the report as JSON
  --junit           print the report as JUnit XML (for CI test reporters; a skipped example is a
                    skipped testcase)
  --timeout-ms <n>  each step of an example must settle within n ms (default ${DEFAULT_EXAMPLE_TIMEOUT_MS})
  --run-writes      also run the examples of write and unknown-effect tools (for real: give them
                    examples that touch test systems only)
  --strict openai   also hold each input schema to OpenAI's strict mode (tools sent with strict: true):
                    what it rejects (an object without "additionalProperties": false, an optional
                    property, an unsupported keyword) is an error. Off by default: ordinary schemas
                    are fine without strict: true.
  -h, --help        show this text

A .js, .mjs or .cjs module loads as is. A TypeScript module needs a TypeScript loader:
  NODE_OPTIONS='--import tsx' npx toolwarden check ./src/tools.ts
  node --import tsx node_modules/toolwarden/dist/cli/main.js check ./src/tools.ts

Exit codes: 0 no failures (warnings and skipped examples allowed), 1 a tool or the module failed the
check, 2 usage error (bad arguments, no such module, the module cannot be imported or exports no tools).
`;

type Format = 'text' | 'json' | 'junit';

/** `toolwarden check`: returns the exit code (0 pass, 1 failed check, 2 usage error). */
export async function runCheckCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCheckArgs(args);
  if (parsed.kind === 'usage-error') {
    await io.stderr(`toolwarden check: ${parsed.message}\n\n${CHECK_USAGE}`);
    return 2;
  }
  if (parsed.kind === 'help') {
    await io.stdout(CHECK_USAGE);
    return 0;
  }
  const { modulePath, format, timeoutMs, runWrites, strict } = parsed;
  // Tool code may fail outside any example (a rejected promise nobody awaits, a throwing timer). Without
  // these the process would die and the report be lost; with them it is a module finding.
  const stray: CheckFinding[] = [];
  const onStray = (error: unknown) => {
    stray.push({
      severity: 'error',
      code: 'UNCAUGHT_ERROR',
      message: `tool code threw outside any example (an unhandled rejection or a throwing callback): ${describeThrown(error)}`,
    });
  };
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);
  try {
    let report: CheckReport;
    try {
      const namespace = await loadToolModule(modulePath, io.cwd);
      const { targets, exportNames } = collectTools(namespace);
      if (targets.length === 0) {
        const keys = Object.keys(namespace).sort();
        throw new ToolModuleError({
          modulePath,
          problem: 'no-tools',
          message: `${modulePath} exports no tools (${keys.length === 0 ? 'it exports nothing' : `its exports: ${keys.join(', ')}`}); export tools made by defineTool, their definitions, or an array of them`,
        });
      }
      report = await checkTools(targets, {
        module: modulePath,
        exportNames,
        runWrites,
        ...(strict === undefined ? {} : { strict }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    } catch (error) {
      if (!(error instanceof ToolModuleError)) throw error;
      if (error.problem !== 'definition-invalid') {
        await io.stderr(`toolwarden check: ${error.message}\n`);
        return 2;
      }
      report = createCheckReport({
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
    }
    // Let errors scheduled by the last example surface before the verdict.
    await new Promise((resolve) => setImmediate(resolve));
    report = withModuleFindings(report, stray);
    await io.stdout(render(report, format));
    return report.status === 'fail' ? 1 : 0;
  } finally {
    process.off('unhandledRejection', onStray);
    process.off('uncaughtException', onStray);
  }
}

function render(report: CheckReport, format: Format): string {
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

type CheckArgs =
  | {
      kind: 'run';
      modulePath: string;
      format: Format;
      timeoutMs: number | undefined;
      runWrites: boolean;
      strict: StrictMode | undefined;
    }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

function parseCheckArgs(args: readonly string[]): CheckArgs {
  const usageError = (message: string): CheckArgs => ({ kind: 'usage-error', message });
  let values: {
    json?: boolean;
    junit?: boolean;
    help?: boolean;
    'timeout-ms'?: string;
    'run-writes'?: boolean;
    strict?: string;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        junit: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        'timeout-ms': { type: 'string' },
        'run-writes': { type: 'boolean' },
        strict: { type: 'string' },
      },
    }));
  } catch (error) {
    return usageError(argumentErrorMessage(error));
  }
  if (values.help === true) return { kind: 'help' };
  if (positionals.length === 0) return usageError('missing the module to check');
  if (positionals.length > 1) {
    return usageError(`expected one module, got ${positionals.length}: ${positionals.join(' ')}`);
  }
  if (values.json === true && values.junit === true)
    return usageError('--json and --junit cannot be combined');
  let timeoutMs: number | undefined;
  const rawTimeout = values['timeout-ms'];
  if (rawTimeout !== undefined) {
    timeoutMs = /^\d+$/.test(rawTimeout) ? Number(rawTimeout) : Number.NaN;
    if (!(timeoutMs >= 1 && timeoutMs <= MAX_EXAMPLE_TIMEOUT_MS)) {
      return usageError(
        `--timeout-ms must be an integer from 1 to ${MAX_EXAMPLE_TIMEOUT_MS}, got ${rawTimeout}`,
      );
    }
  }
  const strict = values.strict;
  if (strict !== undefined && strict !== 'openai') {
    return usageError(`--strict takes openai (the only strict mode checked), got ${strict}`);
  }
  return {
    kind: 'run',
    modulePath: positionals[0] as string,
    format: values.json === true ? 'json' : values.junit === true ? 'junit' : 'text',
    timeoutMs,
    runWrites: values['run-writes'] === true,
    strict,
  };
}
