import { parseArgs } from 'node:util';
import type { CheckModuleProgress, CheckModuleRequest } from '../check/check-module.js';
import type { StrictMode } from '../check/check-report.js';
import {
  CHECK_HARD_LIMIT_MARGIN_MS,
  CHECK_START_TIMEOUT_MS,
  DEFAULT_EXAMPLE_TIMEOUT_MS,
  DEFAULT_LOAD_TIMEOUT_MS,
  MAX_TIMER_MS,
} from '../core/defaults.js';
import { argumentErrorMessage } from './argument-error-message.js';
import { CHECK_EXIT_CODES, type CheckFormat, checkCommandOutcome } from './check-command-outcome.js';
import type { CommandIo } from './command-io.js';
import { type CheckLimits, type CheckRunner, runCheckInChild } from './run-check-in-child.js';

/** An example's steps with a timeout each: validate the input and the expected output, execute, validate the result. */
const EXAMPLE_STEPS = 4;

export const CHECK_USAGE = `Usage: toolwarden check <module> [--json | --junit] [--timeout-ms <n>] [--load-timeout-ms <n>]
                        [--run-writes] [--strict openai]

Loads <module> and checks every tool it exports (tools made by defineTool, their definitions, arrays
of them, a registry, or a default export holding them): the schemas compile, the name and description
are legal, the input schema's root is an object, and each declared example's input matches the input
schema and its expected output the output schema. The examples of read tools (effect: 'read') then run:
the result must keep the output contract and equal the expected output.

A tool whose effect is not 'read' (a write, an unknown effect) is never run unless asked: its examples
are reported as skipped ("write tool: its examples run only with --run-writes"), in every format. A
tool with neither an output schema nor examples is a warning (NOTHING_TO_CHECK), not a failure.

The module is loaded, and its examples run, in a separate process, which is stopped when its import
takes longer than --load-timeout-ms, or one example longer than ${EXAMPLE_STEPS} x --timeout-ms + ${CHECK_HARD_LIMIT_MARGIN_MS} ms
(a synchronous loop, which no timeout can interrupt from inside). What the module prints goes to stderr.

Options:
  --json                 print the report as JSON
  --junit                print the report as JUnit XML (for CI test reporters; a skipped example is a
                         skipped testcase)
  --timeout-ms <n>       each step of an example must settle within n ms (default ${DEFAULT_EXAMPLE_TIMEOUT_MS})
  --load-timeout-ms <n>  importing the module must finish within n ms (default ${DEFAULT_LOAD_TIMEOUT_MS})
  --run-writes           also run the examples of write and unknown-effect tools (for real: give them
                         examples that touch test systems only)
  --strict openai        also hold each input schema to OpenAI's strict mode (tools sent with strict: true):
                         what it rejects (an object without "additionalProperties": false, an optional
                         property, an unsupported keyword) is an error. Off by default: ordinary schemas
                         are fine without strict: true.
  -h, --help             show this text

A .js, .mjs or .cjs module loads as is. A TypeScript module needs a TypeScript loader:
  NODE_OPTIONS='--import tsx' npx toolwarden check ./src/tools.ts
  node --import tsx node_modules/toolwarden/dist/cli/main.js check ./src/tools.ts

Exit codes:
  0  no failures (warnings and skipped examples allowed)
  1  a tool or the module failed the check (the report says which)
  2  usage error: bad arguments, or no such module
  3  could not load the module: it threw while loading, exports no tools, exports a function named
     then (a thenable), needs a TypeScript loader, or its import can never finish (said on stderr)
  4  timed out: the import or an example ran past its limit and was stopped (said on stderr; when the
     examples had started, the report holds the tools checked until then)
`;

export interface CheckCommandDeps {
  /** Where the check runs: by default a child process, stopped at the hard limits. */
  readonly runner?: CheckRunner;
}

/** `toolwarden check`: returns the exit code (see CHECK_EXIT_CODES). */
export async function runCheckCommand(
  args: readonly string[],
  io: CommandIo,
  deps: CheckCommandDeps = {},
): Promise<number> {
  const parsed = parseCheckArgs(args);
  if (parsed.kind === 'usage-error') {
    await io.stderr(`toolwarden check: ${parsed.message}\n\n${CHECK_USAGE}`);
    return CHECK_EXIT_CODES.usage;
  }
  if (parsed.kind === 'help') {
    await io.stdout(CHECK_USAGE);
    return 0;
  }
  const { modulePath, format, timeoutMs, loadTimeoutMs, runWrites, strict } = parsed;
  const request: CheckModuleRequest = {
    modulePath,
    cwd: io.cwd,
    runWrites,
    ...(strict === undefined ? {} : { strict }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  const stepTimeoutMs = timeoutMs ?? DEFAULT_EXAMPLE_TIMEOUT_MS;
  const limits: CheckLimits = {
    startMs: CHECK_START_TIMEOUT_MS,
    loadMs: loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS,
    stepMs: Math.min(MAX_TIMER_MS, EXAMPLE_STEPS * stepTimeoutMs + CHECK_HARD_LIMIT_MARGIN_MS),
  };
  const progress: CheckModuleProgress[] = [];
  // What tool code prints goes to stderr, in order, away from the report.
  let printed = Promise.resolve();
  const end = await (deps.runner ?? runCheckInChild)({
    request,
    limits,
    onProgress: (event) => progress.push(event),
    onOutput: (text) => {
      printed = printed.then(() => io.stderr(text));
    },
  });
  await printed;
  const outcome = checkCommandOutcome({
    modulePath,
    format,
    limits,
    timeoutMs: stepTimeoutMs,
    progress,
    end,
  });
  if (outcome.stdout !== '') await io.stdout(outcome.stdout);
  if (outcome.stderr !== '') await io.stderr(outcome.stderr);
  return outcome.exitCode;
}

type CheckArgs =
  | {
      kind: 'run';
      modulePath: string;
      format: CheckFormat;
      timeoutMs: number | undefined;
      loadTimeoutMs: number | undefined;
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
    'load-timeout-ms'?: string;
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
        'load-timeout-ms': { type: 'string' },
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
  const timeoutMs = milliseconds('--timeout-ms', values['timeout-ms']);
  if (typeof timeoutMs === 'string') return usageError(timeoutMs);
  const loadTimeoutMs = milliseconds('--load-timeout-ms', values['load-timeout-ms']);
  if (typeof loadTimeoutMs === 'string') return usageError(loadTimeoutMs);
  const strict = values.strict;
  if (strict !== undefined && strict !== 'openai') {
    return usageError(`--strict takes openai (the only strict mode checked), got ${strict}`);
  }
  return {
    kind: 'run',
    modulePath: positionals[0] as string,
    format: values.json === true ? 'json' : values.junit === true ? 'junit' : 'text',
    timeoutMs,
    loadTimeoutMs,
    runWrites: values['run-writes'] === true,
    strict,
  };
}

/** A flag's milliseconds, or what is wrong with them. */
function milliseconds(flag: string, raw: string | undefined): number | undefined | string {
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return value >= 1 && value <= MAX_TIMER_MS
    ? value
    : `${flag} must be an integer from 1 to ${MAX_TIMER_MS}, got ${raw}`;
}
