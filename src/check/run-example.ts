import type { ValidationOutcome } from '../core/validation-issue.js';
import { formatIssues } from '../gate/format-tool-error.js';
import { serializeValue } from '../serialize/serialize-value.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import { readField } from '../util/read-field.js';
import type { CheckFinding, CheckFindingCode } from './check-report.js';
import { firstDifference } from './first-difference.js';
import { describeThrown, previewValue } from './preview-value.js';
import { type Settled, settleWithin } from './settle-within.js';

export interface ExampleRun {
  /** The example's label in the report. */
  readonly label: string;
  /** False when the example could not be run at all (not an object with `input`), or was skipped. */
  readonly ran: boolean;
  /** True when `execute` was not to be run: only the schema checks were made. */
  readonly skipped: boolean;
  readonly findings: readonly CheckFinding[];
}

export interface ExampleOptions {
  readonly timeoutMs: number;
  readonly toolName: string;
  /** False: check the example against the schemas only, without running `execute` (a write tool's). */
  readonly execute: boolean;
}

/**
 * Runs one declared example the way the chain would run a call: validate the input against the input
 * schema and the expected output (when given) against the output schema, execute (with a signal that
 * aborts at `timeoutMs`), check the result against the output contract, compare it with the expected
 * output, then format it as the model would see it. Each step must settle within `timeoutMs`. With
 * `execute: false` it stops before `execute`. Never throws.
 */
export async function runExample(
  tool: AnyTool,
  example: unknown,
  index: number,
  options: ExampleOptions,
): Promise<ExampleRun> {
  const label = exampleLabel(example, index);
  const findings: CheckFinding[] = [];
  const skipped = !options.execute;
  const fail = (code: CheckFindingCode, message: string): ExampleRun => {
    findings.push({ severity: 'error', code, message, example: label });
    const valid = code !== 'EXAMPLE_INVALID';
    return { label, ran: valid && !skipped, skipped: valid && skipped, findings };
  };
  if (typeof example !== 'object' || example === null || !hasOwn(example, 'input')) {
    return fail(
      'EXAMPLE_INVALID',
      'an example must be an object with an `input` (and optionally an `output`)',
    );
  }
  const { timeoutMs } = options;
  const input = readField(example, 'input');

  const validated = await settleWithin(() => tool.validateInput(input), timeoutMs);
  const inputOutcome = outcomeOf(validated, 'input', timeoutMs);
  if (typeof inputOutcome === 'string') return fail('VALIDATOR_FAILED', inputOutcome);
  if (!inputOutcome.ok) {
    return fail(
      'EXAMPLE_INPUT_INVALID',
      `the example's input does not match the input schema: ${formatIssues(inputOutcome.issues)}`,
    );
  }
  const expectedProblem = await checkExpectedOutput(tool, example, timeoutMs);
  if (expectedProblem !== undefined) return fail(expectedProblem[0], expectedProblem[1]);
  if (skipped) return { label, ran: false, skipped: true, findings };

  const executed = await settleWithin(
    (signal) => tool.execute(inputOutcome.value, exampleContext(options.toolName, index, signal)),
    timeoutMs,
  );
  if (executed.kind === 'timeout') {
    return fail(
      'EXAMPLE_TIMEOUT',
      `execute did not settle within ${timeoutMs} ms (its signal was aborted); if the example is only slow, raise the timeout (--timeout-ms)`,
    );
  }
  if (executed.kind === 'error')
    return fail('EXAMPLE_THREW', `execute threw ${describeThrown(executed.error)}`);
  const result = executed.value;

  if (tool.validateOutput !== undefined) {
    const validateOutput = tool.validateOutput;
    const checked = await settleWithin(() => validateOutput(result), timeoutMs);
    const outputOutcome = outcomeOf(checked, 'output', timeoutMs);
    if (typeof outputOutcome === 'string') return fail('VALIDATOR_FAILED', outputOutcome);
    if (!outputOutcome.ok) {
      return fail(
        'EXAMPLE_CONTRACT_VIOLATION',
        `the result breaks the output contract: ${formatIssues(outputOutcome.issues)}; the result was ${previewValue(result)}`,
      );
    }
  }

  if (hasOwn(example, 'output')) {
    const expected = readField(example, 'output');
    let difference: ReturnType<typeof firstDifference>;
    try {
      difference = firstDifference(result, expected);
    } catch (error) {
      return fail('EXAMPLE_OUTPUT_MISMATCH', `the result cannot be compared: ${describeThrown(error)}`);
    }
    if (difference !== undefined) {
      return fail(
        'EXAMPLE_OUTPUT_MISMATCH',
        `the result differs from the example's output at ${difference.path || '/'}: expected ${previewValue(difference.expected)}, got ${previewValue(difference.actual)}`,
      );
    }
  }

  const formatProblem = checkFormatting(tool, result);
  if (formatProblem !== undefined) return fail(formatProblem[0], formatProblem[1]);
  return { label, ran: true, skipped: false, findings };
}

/** The expected output, when the example gives one, must itself keep the output contract. */
async function checkExpectedOutput(
  tool: AnyTool,
  example: object,
  timeoutMs: number,
): Promise<[CheckFindingCode, string] | undefined> {
  const validateOutput = tool.validateOutput;
  if (validateOutput === undefined || !hasOwn(example, 'output')) return undefined;
  const expected = readField(example, 'output');
  const checked = await settleWithin(() => validateOutput(expected), timeoutMs);
  const outcome = outcomeOf(checked, 'output', timeoutMs);
  if (typeof outcome === 'string') return ['VALIDATOR_FAILED', outcome];
  if (outcome.ok) return undefined;
  return [
    'EXAMPLE_OUTPUT_INVALID',
    `the example's output does not match the output schema: ${formatIssues(outcome.issues)}`,
  ];
}

/** The text the model would see must exist, and be the same for the same value. */
function checkFormatting(tool: AnyTool, result: unknown): [CheckFindingCode, string] | undefined {
  const format = tool.formatResult;
  if (format === undefined) {
    const serialized = serializeValue(result);
    return serialized.ok
      ? undefined
      : ['RESULT_NOT_SERIALIZABLE', `the result cannot be serialized for the model: ${serialized.message}`];
  }
  const texts: unknown[] = [];
  for (let i = 0; i < 2; i++) {
    try {
      texts.push(format(result));
    } catch (error) {
      return ['FORMAT_FAILED', `formatResult threw ${describeThrown(error)}`];
    }
    if (typeof texts[i] !== 'string') {
      return ['FORMAT_FAILED', `formatResult returned ${typeof texts[i]}, not a string`];
    }
  }
  if (texts[0] !== texts[1]) {
    return [
      'FORMAT_NOT_DETERMINISTIC',
      `formatResult gave two different texts for the same value: ${previewValue(texts[0], 80)} then ${previewValue(texts[1], 80)}`,
    ];
  }
  return undefined;
}

function outcomeOf(
  settled: Settled<ValidationOutcome<unknown>>,
  which: 'input' | 'output',
  timeoutMs: number,
): ValidationOutcome<unknown> | string {
  switch (settled.kind) {
    case 'timeout':
      return `the ${which} validator did not settle within ${timeoutMs} ms`;
    case 'error':
      return `the ${which} validator threw ${describeThrown(settled.error)}`;
    case 'value': {
      const outcome: unknown = settled.value;
      if (
        typeof outcome === 'object' &&
        outcome !== null &&
        typeof (outcome as { ok?: unknown }).ok === 'boolean'
      ) {
        return settled.value;
      }
      return `the ${which} validator returned ${previewValue(outcome, 80)}, not a validation outcome`;
    }
    default: {
      const unreachable: never = settled;
      throw new TypeError(`unknown settlement ${String(unreachable)}`);
    }
  }
}

function exampleContext(toolName: string, index: number, signal: AbortSignal): ToolContext {
  return {
    toolCallId: `check_example_${index + 1}`,
    toolName,
    turnId: undefined,
    sessionId: undefined,
    signal,
    attempt: 1,
    data: undefined,
  };
}

/** An example's label in the report: its `name`, or `#1`, `#2`... by position. */
export function exampleLabel(example: unknown, index: number): string {
  try {
    const name = (example as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && name.trim() !== '') return name;
  } catch {
    // A throwing getter: fall back to the position.
  }
  return `#${index + 1}`;
}

function hasOwn(value: object, key: string): boolean {
  try {
    return Object.hasOwn(value, key);
  } catch {
    return false;
  }
}
