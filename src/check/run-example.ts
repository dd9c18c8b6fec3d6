import type { ToolCallOutcome } from '../chain/runtime.js';
import { createToolRuntime } from '../chain/runtime.js';
import { ContractViolationError } from '../core/errors/contract-violation-error.js';
import { ResultSerializationError } from '../core/errors/result-serialization-error.js';
import { ToolTimeoutError } from '../core/errors/tool-timeout-error.js';
import type { ValidationOutcome } from '../core/validation-issue.js';
import { formatIssues } from '../gate/format-tool-error.js';
import type { AnyTool } from '../tools/define-tool.js';
import { readField } from '../util/read-field.js';
import type { CheckFinding, CheckFindingCode } from './check-report.js';
import { firstDifference } from './first-difference.js';
import { describeThrown, previewValue } from './preview-value.js';
import { type Settled, settleWithin } from './settle-within.js';

/** How one declared example ran, and what it found. */
export interface ExampleRun {
  /** The example's label in the report. */
  readonly label: string;
  /** False when the example could not be run at all (not an object with `input`), or was skipped. */
  readonly ran: boolean;
  /** True when `execute` was not to be run: only the schema checks were made. */
  readonly skipped: boolean;
  readonly findings: readonly CheckFinding[];
}

/** How an example is run: its timeout, its tool's name, and whether `execute` runs at all. */
export interface ExampleOptions {
  readonly timeoutMs: number;
  readonly toolName: string;
  /** False: check the example against the schemas only, without running `execute` (a write tool's). */
  readonly execute: boolean;
}

/**
 * Runs one declared example: checks the example itself (its input against the input schema, its expected
 * output, when given, against the output schema), then runs the call through the chain
 * (`executeToolCall`: the input parsed and validated, `execute` with a signal that aborts at `timeoutMs`,
 * the output contract, serialization and formatting), compares the result with the expected output and
 * formats it once more to see that the text is the same. Each of the example's own checks must settle
 * within `timeoutMs`. With `execute: false` it stops before the call. Never throws.
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

  // The call, through the chain (timeout, output contract, serialization, formatting), its tool watched.
  const watched = watch(tool, timeoutMs);
  let answer: ToolCallOutcome;
  try {
    answer = await createToolRuntime({ tools: [watched.tool] }).executeToolCall({
      id: `check_example_${index + 1}`,
      name: tool.name,
      arguments: input,
    });
  } catch (error) {
    const problem = watched.problem();
    if (problem !== undefined) return fail(problem[0], problem[1]);
    return fail('EXAMPLE_THREW', `the chain failed: ${describeThrown(error)}`);
  }
  const problem = answerProblem(answer, watched);
  if (problem !== undefined) return fail(problem[0], problem[1]);
  const result = watched.returned?.value;

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

  const formatProblem = checkDeterministic(tool, result, watched.formatted);
  if (formatProblem !== undefined) return fail(formatProblem[0], formatProblem[1]);
  return { label, ran: true, skipped: false, findings };
}

/** The tool as the check runs it in the chain, and what the chain did with it. */
interface WatchedTool {
  readonly tool: AnyTool;
  /** What `execute` returned, once it did. */
  readonly returned: { readonly value: unknown } | undefined;
  /** What `execute` threw or rejected with, once it did. */
  readonly thrown: { readonly error: unknown } | undefined;
  /** The text `formatResult` gave the chain. */
  readonly formatted: string | undefined;
  /** What went wrong in a step of the tool's own (its output validator, its formatter), if anything. */
  problem(): [CheckFindingCode, string] | undefined;
}

/**
 * The tool with the check's settings (the check's timeout, no retries, the contract broken as a failure,
 * no hooks and no idempotency: the example is to run once, as it is) and its own steps watched, so a
 * failure the chain reports is named by the step it came from.
 */
function watch(tool: AnyTool, timeoutMs: number): WatchedTool {
  let returned: { readonly value: unknown } | undefined;
  let thrown: { readonly error: unknown } | undefined;
  let formatted: string | undefined;
  let problem: [CheckFindingCode, string] | undefined;
  const { validateOutput, formatResult } = tool;
  const watched: AnyTool = {
    ...tool,
    timeoutMs,
    retries: 0,
    onContractViolation: 'feedback',
    decide: undefined,
    needsApproval: undefined,
    idempotency: undefined,
    execute: async (args, context) => {
      try {
        const value: unknown = await tool.execute(args, context);
        returned = { value };
        return value;
      } catch (error) {
        thrown = { error };
        throw error;
      }
    },
    validateOutput:
      validateOutput === undefined
        ? undefined
        : async (value) => {
            let outcome: unknown;
            try {
              outcome = await validateOutput(value);
            } catch (error) {
              problem ??= ['VALIDATOR_FAILED', `the output validator threw ${describeThrown(error)}`];
              throw error;
            }
            if (!isOutcome(outcome)) {
              problem ??= [
                'VALIDATOR_FAILED',
                `the output validator returned ${previewValue(outcome, 80)}, not a validation outcome`,
              ];
            }
            return outcome as ValidationOutcome<unknown>;
          },
    formatResult:
      formatResult === undefined
        ? undefined
        : (value) => {
            let text: unknown;
            try {
              text = formatResult(value);
            } catch (error) {
              problem ??= ['FORMAT_FAILED', `formatResult threw ${describeThrown(error)}`];
              throw error;
            }
            if (typeof text !== 'string')
              problem ??= ['FORMAT_FAILED', `formatResult returned ${typeof text}, not a string`];
            else formatted = text;
            return text as string;
          },
  };
  return {
    tool: watched,
    get returned() {
      return returned;
    },
    get thrown() {
      return thrown;
    },
    get formatted() {
      return formatted;
    },
    problem: () => problem,
  };
}

/** What the chain's answer says is wrong with the example's run, by the step that failed; undefined: nothing. */
function answerProblem(
  answer: ToolCallOutcome,
  watched: WatchedTool,
): [CheckFindingCode, string] | undefined {
  if (answer.type !== 'answered') return ['EXAMPLE_THREW', 'the chain did not run the call'];
  const own = watched.problem();
  if (own !== undefined) return own;
  const { result } = answer;
  if (result.type === 'success') return undefined;
  const { error } = result;
  if (ToolTimeoutError.isInstance(error)) {
    return [
      'EXAMPLE_TIMEOUT',
      `execute did not settle within ${error.timeoutMs} ms (its signal was aborted); if the example is only slow, raise the timeout (--timeout-ms)`,
    ];
  }
  if (watched.thrown !== undefined)
    return ['EXAMPLE_THREW', `execute threw ${describeThrown(watched.thrown.error)}`];
  if (watched.returned === undefined) {
    // The chain refused the input the check's own validation accepted (its argument limits).
    return ['EXAMPLE_INPUT_INVALID', `the chain refused the example's input: ${answer.content}`];
  }
  if (ContractViolationError.isInstance(error)) {
    return [
      'EXAMPLE_CONTRACT_VIOLATION',
      `the result breaks the output contract: ${formatIssues(error.issues)}; the result was ${previewValue(watched.returned.value)}`,
    ];
  }
  if (ResultSerializationError.isInstance(error)) {
    const prefix = `Tool "${error.toolName}" returned a value that cannot be serialized: `;
    const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return ['RESULT_NOT_SERIALIZABLE', `the result cannot be serialized for the model: ${reason}`];
  }
  return ['EXAMPLE_THREW', `the call failed: ${describeThrown(error)}`];
}

/** The text the model would see must be the same for the same value: `formatResult` once more, compared. */
function checkDeterministic(
  tool: AnyTool,
  result: unknown,
  first: string | undefined,
): [CheckFindingCode, string] | undefined {
  const format = tool.formatResult;
  if (format === undefined || first === undefined) return undefined;
  let again: unknown;
  try {
    again = format(result);
  } catch (error) {
    return ['FORMAT_FAILED', `formatResult threw ${describeThrown(error)}`];
  }
  if (again === first) return undefined;
  if (typeof again !== 'string')
    return ['FORMAT_FAILED', `formatResult returned ${typeof again}, not a string`];
  return [
    'FORMAT_NOT_DETERMINISTIC',
    `formatResult gave two different texts for the same value: ${previewValue(first, 80)} then ${previewValue(again, 80)}`,
  ];
}

function isOutcome(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
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
