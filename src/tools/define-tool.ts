import { ToolDefinitionError } from '../core/errors/tool-definition-error.js';
import { isJsonSchemaObject, type JsonSchema } from '../core/json-schema.js';
import {
  flagOrFunctionProblem,
  type NumberOptionRule,
  numberOptionProblem,
} from '../options/check-option.js';
import { sanitizeName } from '../redact/redact.js';
import {
  convertStandardSchema,
  createInputValidator,
  type InputValidator,
  isStandardSchema,
  type SchemaInput,
  toProviderJsonSchema,
} from '../schema/input-validator.js';
import { defaultSchemaCompiler } from '../schema/schema-compiler.js';
import { resolveIdempotency } from './idempotency-options.js';
import { type LoopHints, loopHintsProblem } from './loop-hints.js';
import type { Tool, ToolDefinition } from './tool-definition.js';
import { EFFECT_CHOICES, effectRules, isToolEffect } from './tool-effect.js';
import { checkToolName } from './tool-name.js';

export type {
  AnyTool,
  ContractViolationPolicy,
  Decide,
  DecisionCall,
  DecisionContext,
  Tool,
  ToolDefinition,
} from './tool-definition.js';
export type { ToolEffect } from './tool-effect.js';

const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object' };

/** The numeric settings of a tool, each checked by the one option rule (see check-option.ts). */
const NUMBER_OPTIONS = [
  { option: 'timeoutMs', min: 1, timer: true },
  { option: 'retries', min: 0 },
  { option: 'maxCallsPerTurn', min: 0 },
  { option: 'maxResultChars', min: 64 },
] as const satisfies readonly (NumberOptionRule & { option: keyof ToolDefinition<unknown, unknown> })[];

/**
 * Defines a tool. Everything is checked now, so a bad definition fails at startup with a message that says
 * how to fix it, never at the model's first call.
 */
// biome-ignore lint/suspicious/noExplicitAny: arguments are inferred from `input` or from `execute`.
export function defineTool<TArgs = any, TResult = unknown>(
  definition: ToolDefinition<TArgs, TResult>,
): Tool<TArgs, TResult> {
  if (typeof definition !== 'object' || definition === null) {
    throw new ToolDefinitionError({ toolName: '', message: 'defineTool expects an options object' });
  }
  const { name, description, input, effect, execute } = definition;
  const shownName = typeof name === 'string' ? sanitizeName(name) : String(name);
  const fail = (message: string, cause?: unknown): never => {
    throw new ToolDefinitionError({ toolName: shownName, message: `Tool "${shownName}": ${message}`, cause });
  };
  const nameProblem = checkToolName(name);
  if (nameProblem !== undefined) fail(`${nameProblem}. Rename it, for example to "${suggestName(name)}".`);
  if (typeof description !== 'string' || description.trim() === '') {
    fail('a description is required: the model reads it to decide when to call the tool.');
  }
  if (!isToolEffect(effect)) fail(`effect must be ${EFFECT_CHOICES}, got ${String(effect)}.`);
  if (typeof execute !== 'function') fail('execute must be a function.');
  for (const rule of NUMBER_OPTIONS) {
    const value = definition[rule.option];
    const problem = value === undefined ? undefined : numberOptionProblem(value, rule);
    if (problem !== undefined) fail(`${rule.option} ${problem}.`);
  }

  if (typeof definition.retries === 'number' && definition.retries > 0 && !effectRules(effect).retryable) {
    fail(
      'a tool of unknown effect is never retried (a failed attempt may have acted): declare its effect, or remove retries.',
    );
  }

  const schema = input ?? (EMPTY_OBJECT_SCHEMA as SchemaInput<TArgs>);
  if (!isStandardSchema(schema) && !isJsonSchemaObject(schema)) {
    fail('input must be a JSON Schema object or a Standard Schema (zod, valibot, ...).');
  }
  const compiler = definition.schemaCompiler ?? defaultSchemaCompiler();
  let validateInput: InputValidator<TArgs> | undefined;
  try {
    validateInput = createInputValidator(schema, compiler);
  } catch (error) {
    fail(
      `its input schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  }
  let inputJsonSchema = schema as JsonSchema;
  if (isStandardSchema(schema)) {
    const conversion = convertStandardSchema(schema);
    if (!conversion.ok) fail(`its input cannot be shown to a model: ${conversion.problem}`);
    else inputJsonSchema = conversion.schema;
  }
  const { output } = definition;
  let validateOutput: InputValidator<TResult> | undefined;
  if (output !== undefined) {
    if (!isStandardSchema(output) && !isJsonSchemaObject(output)) {
      fail('output must be a JSON Schema object or a Standard Schema (zod, valibot, ...).');
    }
    try {
      validateOutput = createInputValidator(output, compiler);
    } catch (error) {
      fail(
        `its output schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
    }
  }
  const policy = definition.onContractViolation;
  if (policy !== undefined && policy !== 'feedback' && policy !== 'throw' && policy !== 'warn') {
    fail(`onContractViolation must be 'feedback', 'throw' or 'warn', got ${String(policy)}.`);
  }
  if (definition.formatResult !== undefined && typeof definition.formatResult !== 'function') {
    fail('formatResult must be a function.');
  }
  if (definition.decide !== undefined && typeof definition.decide !== 'function') {
    fail('decide must be a function.');
  }
  // A permission check under its old name would otherwise be dropped without a word.
  for (const old of ['authorize', 'beforeToolCall']) {
    if (old in definition)
      fail(`${old} is now decide(call, context), answering { type: 'run' | 'ask' | 'deny' }.`);
  }
  const approvalProblem = flagOrFunctionProblem(definition.needsApproval);
  if (approvalProblem !== undefined) fail(`needsApproval ${approvalProblem}.`);
  const showProblem = flagOrFunctionProblem(definition.showErrorMessages);
  if (showProblem !== undefined) fail(`showErrorMessages ${showProblem}.`);
  if (definition.loop !== undefined) {
    const problem = loopHintsProblem(definition.loop);
    if (problem !== undefined) fail(`loop ${problem}.`);
  }
  const examples = definition.examples ?? [];
  if (!Array.isArray(examples)) fail('examples must be an array of { input, output? }.');
  const idempotency = resolveIdempotency(definition.idempotency, { effect, retries: definition.retries });
  if ('problem' in idempotency) fail(idempotency.problem);

  return Object.freeze({
    name,
    description,
    effect,
    inputJsonSchema,
    validateInput: validateInput as InputValidator<TArgs>,
    execute,
    timeoutMs: definition.timeoutMs,
    retries: definition.retries,
    maxCallsPerTurn: definition.maxCallsPerTurn,
    returnDirect: definition.returnDirect ?? false,
    classifyError: definition.classifyError,
    showErrorMessages: definition.showErrorMessages,
    maxResultChars: definition.maxResultChars,
    outputJsonSchema: output === undefined ? undefined : toProviderJsonSchema(output as SchemaInput<unknown>),
    validateOutput,
    onContractViolation: policy,
    formatResult: definition.formatResult,
    examples: Object.freeze([...examples]),
    decide: definition.decide,
    needsApproval: definition.needsApproval,
    loop: definition.loop === undefined ? undefined : copyHints(definition.loop),
    idempotency: 'settings' in idempotency ? idempotency.settings : undefined,
  });
}

/** The checked hints, copied (frozen), so the caller's object can change without changing the tool. */
function copyHints(hints: LoopHints): LoopHints {
  return Object.freeze({
    ...hints,
    ...(hints.ignoreFields === undefined ? {} : { ignoreFields: Object.freeze([...hints.ignoreFields]) }),
    ...(typeof hints.polled === 'object' ? { polled: Object.freeze({ ...hints.polled }) } : {}),
  });
}

function suggestName(name: unknown): string {
  const cleaned = String(name)
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .slice(0, 64);
  return cleaned.replace(/^_+|_+$/g, '') || 'my_tool';
}
