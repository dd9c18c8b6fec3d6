import { DEFAULT_EXAMPLE_TIMEOUT_MS, MAX_EXAMPLE_TIMEOUT_MS } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { checkProviderRules } from './check-provider-rules.js';
import {
  type CheckFinding,
  type CheckReport,
  createCheckReport,
  type StrictMode,
  type ToolCheck,
  toolCheck,
} from './check-report.js';
import type { CheckTarget } from './collect-tools.js';
import { defineForCheck } from './define-for-check.js';
import { describeThrown } from './preview-value.js';
import { exampleLabel, runExample } from './run-example.js';

/** Options of `checkTools`: the time an example gets, which examples run, strict mode, the report's title. */
export interface CheckOptions {
  /** Each step of each example must settle within this many milliseconds (default 5,000). */
  readonly timeoutMs?: number;
  /** The report's title: what was checked (default `tools`). */
  readonly module?: string;
  /** Where each target came from, for the report (see `collectTools`). */
  readonly exportNames?: ReadonlyMap<CheckTarget, string>;
  /**
   * Run the examples of tools whose effect is not `read` (writes, unknown effects) too (default false:
   * their input and expected output are checked against the schemas, `execute` is not called, and the
   * report lists them as skipped). Give such tools examples that touch test systems only.
   */
  readonly runWrites?: boolean;
  /**
   * Also hold each input schema to a provider's strict mode: `openai` (Structured Outputs, a tool sent
   * with `strict: true`). What it rejects is then an error. Default: not checked, since an ordinary
   * schema (optional properties, no `additionalProperties: false`) is fine without `strict: true`.
   */
  readonly strict?: StrictMode;
}

/**
 * Checks tools (made by `defineTool`) and tool definitions (not yet defined: the checker defines them,
 * so a definition error is reported per tool) against their contracts, and returns a report:
 * - the definition: its schemas compile, `defineTool` accepts it;
 * - the providers' rules: a legal name, a description, an object input schema (OpenAI strict mode when
 *   `strict: 'openai'`);
 * - the examples: each one's input matches the input schema and its expected output the output schema;
 *   then, for a tool whose effect is `read` (any tool with `runWrites`), it runs, its result satisfies the
 *   output contract, equals the expected output when there is one, and formats to the same text every time;
 * - a tool with neither an output schema nor examples is a warning: there is nothing to check.
 *
 * Tools and examples run one at a time, in order, in the caller's process: `timeoutMs` aborts an
 * example's signal and moves on, but nothing in a process can stop code that loops synchronously, so an
 * example that does waits forever, and an error tool code raises outside an example (an unhandled
 * rejection) is the caller's to handle. `toolwarden check` runs this in a process of its own, which it
 * stops at a hard time limit. Writes nothing; never throws for a tool's behaviour (only for bad options).
 */
export function checkTools(targets: Iterable<CheckTarget>, options: CheckOptions = {}): Promise<CheckReport> {
  return checkToolsWithProgress(targets, options, {});
}

/** What `checkToolsWithProgress` says while it checks, for a process that watches it. */
export interface CheckProgress {
  /** An example is about to be checked (its input validated, then maybe run). */
  readonly exampleStarting?: (tool: string, example: string) => void;
  /** A tool's check is complete. */
  readonly toolChecked?: (check: ToolCheck) => void;
}

/** `checkTools`, telling `progress` as it goes. */
export async function checkToolsWithProgress(
  targets: Iterable<CheckTarget>,
  options: CheckOptions,
  progress: CheckProgress,
): Promise<CheckReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXAMPLE_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_EXAMPLE_TIMEOUT_MS) {
    throw new InvalidOptionsError({
      option: 'timeoutMs',
      message: `must be an integer from 1 to ${MAX_EXAMPLE_TIMEOUT_MS}, got ${String(timeoutMs)}`,
    });
  }
  const runWrites = options.runWrites ?? false;
  if (typeof runWrites !== 'boolean') {
    throw new InvalidOptionsError({
      option: 'runWrites',
      message: `must be true or false, got ${String(runWrites)}`,
    });
  }
  const strict = options.strict;
  if (strict !== undefined && strict !== 'openai') {
    throw new InvalidOptionsError({
      option: 'strict',
      message: `must be 'openai' or left out, got ${String(strict)}`,
    });
  }
  const list = [...targets];
  const names = new Map<unknown, number>();
  const defined = list.map((target) => {
    try {
      const entry = defineForCheck(target);
      names.set(entry.name, (names.get(entry.name) ?? 0) + 1);
      return { target, entry };
    } catch (error) {
      // A hostile definition (a throwing getter): report it, check the others.
      return { target, error };
    }
  });
  const tools: ToolCheck[] = [];
  for (const { target, entry, error } of defined) {
    const exportName = options.exportNames?.get(target);
    if (entry === undefined) {
      const message = `the definition cannot be read: ${describeThrown(error)}`;
      const check = toolCheck({ name: '(unreadable)', exportName, examplesRun: 0 }, [
        { severity: 'error', code: 'DEFINITION_INVALID', message },
      ]);
      tools.push(check);
      progress.toolChecked?.(check);
      continue;
    }
    const findings: CheckFinding[] = [...entry.findings];
    findings.push(
      ...checkProviderRules(
        { name: entry.name, description: entry.description, inputJsonSchema: entry.inputJsonSchema },
        strict,
      ),
    );
    if ((names.get(entry.name) ?? 0) > 1 && typeof entry.name === 'string') {
      findings.push({
        severity: 'error',
        code: 'NAME_DUPLICATE',
        message: `${names.get(entry.name)} tools are named "${entry.name}": a registry rejects duplicates, rename all but one`,
      });
    }
    findings.push(...coverage(entry.hasOutput, entry.exampleCount));
    let examplesRun = 0;
    const skippedExamples: string[] = [];
    let skipReason: string | undefined;
    if (entry.tool !== undefined) {
      const examples: readonly unknown[] = Array.isArray(entry.tool.examples) ? entry.tool.examples : [];
      // Only a read is safe to run unasked: written so, a new effect is not run until someone decides it is.
      const execute = runWrites || entry.tool.effect === 'read';
      if (!execute) skipReason = skipReasonOf(entry.tool.effect);
      for (const [index, example] of examples.entries()) {
        progress.exampleStarting?.(shownName(entry.name), exampleLabel(example, index));
        const run = await runExample(entry.tool, example, index, {
          timeoutMs,
          toolName: typeof entry.name === 'string' ? entry.name : entry.tool.name,
          execute,
        });
        if (run.ran) examplesRun++;
        if (run.skipped) skippedExamples.push(run.label);
        findings.push(...run.findings);
      }
    }
    const check = toolCheck(
      { name: shownName(entry.name), exportName, examplesRun, skippedExamples, skipReason },
      findings,
    );
    tools.push(check);
    progress.toolChecked?.(check);
  }
  const moduleFindings: CheckFinding[] =
    list.length === 0
      ? [
          {
            severity: 'error',
            code: 'NO_TOOLS',
            message: 'no tools to check: export tools made by defineTool, or their definitions',
          },
        ]
      : [];
  return createCheckReport({ module: options.module ?? 'tools', tools, moduleFindings });
}

/** A contract needs something to hold the tool to: an output schema, examples, ideally both. */
function coverage(hasOutput: boolean, exampleCount: number): CheckFinding[] {
  if (!hasOutput && exampleCount === 0) {
    return [
      {
        severity: 'warning',
        code: 'NOTHING_TO_CHECK',
        message:
          'nothing to check beyond the definition: declare an output schema (results are then checked before the model sees them) and examples',
      },
    ];
  }
  if (!hasOutput) {
    return [
      {
        severity: 'warning',
        code: 'NO_OUTPUT_SCHEMA',
        message: 'no output schema: results are not checked before the model sees them; declare `output`',
      },
    ];
  }
  if (exampleCount === 0) {
    return [
      {
        severity: 'warning',
        code: 'NO_EXAMPLES',
        message: 'no examples: the output contract is declared but nothing here shows the tool keeps it',
      },
    ];
  }
  return [];
}

/** Why a tool's examples were not run: its effect, as declared. */
function skipReasonOf(effect: unknown): string {
  const what =
    effect === 'unknown'
      ? 'unknown-effect tool'
      : typeof effect === 'string'
        ? `${effect} tool`
        : 'tool without a read effect';
  return `${what}: its examples run only with --run-writes`;
}

function shownName(name: unknown): string {
  if (typeof name === 'string') return name === '' ? '(empty name)' : name;
  return name === undefined ? '(unnamed)' : `(${typeof name} name)`;
}
