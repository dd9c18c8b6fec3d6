import type { ErrorClass } from '../core/error-class.js';
import { ToolDefinitionError } from '../core/errors/tool-definition-error.js';
import { isJsonSchemaObject, type JsonSchema } from '../core/json-schema.js';
import type { ShowErrorMessages } from '../gate/show-error-messages.js';
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
import { defaultSchemaCompiler, type SchemaCompiler } from '../schema/schema-compiler.js';
import type { CallDecision } from './call-decision.js';
import {
  type IdempotencyOptions,
  type IdempotencySettings,
  resolveIdempotency,
} from './idempotency-options.js';
import { type LoopHints, loopHintsProblem } from './loop-hints.js';
import type { ToolContext } from './tool-context.js';
import { EFFECT_CHOICES, effectRules, isToolEffect, type ToolEffect } from './tool-effect.js';
import { checkToolName } from './tool-name.js';

export type { ToolEffect } from './tool-effect.js';

const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object' };

/** The numeric settings of a tool, each checked by the one option rule (see check-option.ts). */
const NUMBER_OPTIONS = [
  { option: 'timeoutMs', min: 1, timer: true },
  { option: 'retries', min: 0 },
  { option: 'maxCallsPerTurn', min: 0 },
  { option: 'maxResultChars', min: 64 },
] as const satisfies readonly (NumberOptionRule & { option: keyof ToolDefinition<unknown, unknown> })[];

/** A tool as its author declares it to `defineTool`: name, description, schemas, effect, policy and `execute`. */
export interface ToolDefinition<TArgs, TResult> {
  /** Must match `^[a-zA-Z0-9_-]{1,64}$`, the rule every major provider enforces. */
  name: string;
  /** What the model reads to decide when and how to call the tool. */
  description: string;
  /**
   * JSON Schema (compiled once with Ajv; annotations such as `example` and `x-*` are accepted) or a Standard
   * Schema that converts to JSON Schema (zod 4.2+, valibot through `@valibot/to-json-schema`), so the model
   * can be shown it. Omitted: any object.
   */
  input?: SchemaInput<TArgs>;
  /**
   * What a call does to the world (see `ToolEffect` and docs/effects.md): `read`, `write` (run one at a
   * time, never retried unless set, deduplicated), `idempotent-write` (safe to repeat, so retried) or
   * `unknown` (never retried, never answered from a record).
   */
  effect: ToolEffect;
  execute: (args: TArgs, context: ToolContext) => TResult | Promise<TResult>;
  /** Per-call timeout in milliseconds (the tool's signal aborts; the failure counts as transient). */
  timeoutMs?: number;
  /** Retries after a transient failure (defaults: read and idempotent-write 2, write 0; unknown: never). */
  retries?: number;
  /** Calls allowed per turn for this tool (overrides the chain's limits). */
  maxCallsPerTurn?: number;
  /** When true and every executed tool in a response says so, the caller may return the result directly. */
  returnDirect?: boolean;
  /** Classifies this tool's failures before the global policy; return undefined to defer to it. */
  classifyError?: (error: unknown) => ErrorClass | undefined;
  /**
   * Shows the model the message of this tool's errors of unknown provenance (a plain `Error`, a driver's
   * error): `true`, or a function for the errors it returns `true` for (your own error class). Default: the
   * policy's, else `false`. A `ToolInputError` or `TransientToolError` is always shown; every shown message is
   * redacted and cut.
   */
  showErrorMessages?: ShowErrorMessages;
  /** Tool-message content longer than this is truncated with a marker. */
  maxResultChars?: number;
  /**
   * The contract of the result: a JSON Schema or a Standard Schema. A successful result is checked
   * before it reaches the model (error results are not); what a violation does is `onContractViolation`.
   */
  output?: SchemaInput<TResult>;
  /**
   * What a result that breaks the output contract does: fail the call (`feedback`, the default: the model
   * gets `CONTRACT_VIOLATION`), stop the run (`throw`, fatal) or pass with an event (`warn`).
   */
  onContractViolation?: 'feedback' | 'throw' | 'warn';
  /** The text the model sees for a result (default: deterministic JSON). Must give the same text for the same value. */
  formatResult?: (value: TResult) => string;
  /** Worked examples, run by `toolwarden check`: the input, and the expected output when there is one. */
  examples?: readonly {
    /** Shown in reports (default: the example's position). */
    readonly name?: string;
    /** The arguments, as the model would send them once parsed. */
    readonly input: TArgs;
    /** When present, the result must equal it (deep equality); when absent, it must only satisfy `output`. */
    readonly output?: TResult;
  }[];
  /** Compiles the JSON Schemas (default: `defaultSchemaCompiler()`, which every tool shares). */
  schemaCompiler?: SchemaCompiler;
  /**
   * Decides, before each call runs, whether it runs, waits for a person or is denied, from the validated
   * call and the caller's `data` (roles, a tenant), never the model's claims. Asked before the policy's, and
   * again when a waiting call is resumed (an approval grants no permission). A hook that throws, rejects or
   * answers anything but a `CallDecision` is a caller defect (`CallbackError`): the call does not run.
   */
  decide?: (
    /** The call: its arguments have passed the tool's schema. */
    call: {
      /** The call's id (the model's, or one generated for it). */
      readonly toolCallId: string;
      /** The tool's name. */
      readonly toolName: string;
      /** The validated arguments, as the tool would receive them. */
      readonly arguments: TArgs;
      /** The argument text the model sent. */
      readonly rawArguments: string;
      /** The tool called (its `effect`, its settings). */
      readonly tool: AnyTool;
    },
    /** What the hook knows of the call besides the call itself: the caller's, never the model's. */
    context: {
      /** The turn the call belongs to, when the caller gave one. */
      readonly turnId: string | undefined;
      /** The session (conversation) the call belongs to, when the caller gave one. */
      readonly sessionId: string | undefined;
      /** Caller data (roles, a tenant), as the tool would receive it. */
      readonly data: unknown;
      /** The execution's signal, when the caller gave one. */
      readonly signal: AbortSignal | undefined;
    },
  ) => CallDecision | Promise<CallDecision>;
  /**
   * The shorthand for `decide` answering `{ type: 'ask' }`: `true` (every call waits for a person), or a
   * function of the validated arguments. Its run pauses as `interrupted`; the other calls of the response run.
   */
  needsApproval?:
    | boolean
    | ((
        args: TArgs,
        context: Parameters<NonNullable<ToolDefinition<TArgs, TResult>['decide']>>[1],
      ) => boolean | Promise<boolean>);
  /**
   * What the loop guard should know about this tool's results: fields that do not count, whether it is
   * polled, whether distinct arguments may share a result, whether array order counts.
   */
  loop?: LoopHints;
  /**
   * How the calls of a write tool are kept from running twice (see "Idempotent writes" in docs/approvals-and-state.md): by
   * default, the same call with the same arguments in one session runs once and its duplicates get the
   * recorded result. Give your own `key`, a `mode`, a `ttlMs`, or `false` to run every call.
   */
  idempotency?: false | IdempotencyOptions<TArgs>;
}

/**
 * The decision before a call, declared on a tool or on the policy (sync or async): `ToolDefinition['decide']`
 * for any arguments.
 */
export type Decide<TArgs = unknown> = NonNullable<ToolDefinition<TArgs, unknown>['decide']>;

/** The call a `decide` hook is asked about. */
export type DecisionCall<TArgs = unknown> = Parameters<Decide<TArgs>>[0];

/** What a `decide` hook knows of the call besides the call itself. */
export type DecisionContext = Parameters<Decide>[1];

/** What a result that breaks its tool's output contract does. */
export type ContractViolationPolicy = NonNullable<ToolDefinition<unknown, unknown>['onContractViolation']>;

/** A defined, validated tool. Create with `defineTool`. */
export interface Tool<TArgs = unknown, TResult = unknown> {
  readonly name: string;
  readonly description: string;
  readonly effect: ToolEffect;
  /** The JSON Schema providers see: the input schema, or what its Standard Schema converts to. */
  readonly inputJsonSchema: JsonSchema;
  readonly validateInput: InputValidator<TArgs>;
  readonly execute: (args: TArgs, context: ToolContext) => TResult | Promise<TResult>;
  readonly timeoutMs: number | undefined;
  readonly retries: number | undefined;
  readonly maxCallsPerTurn: number | undefined;
  readonly returnDirect: boolean;
  readonly classifyError: ((error: unknown) => ErrorClass | undefined) | undefined;
  readonly showErrorMessages: ShowErrorMessages | undefined;
  readonly maxResultChars: number | undefined;
  /** The JSON Schema of the result (undefined when none was declared or it cannot be converted). */
  readonly outputJsonSchema: JsonSchema | undefined;
  /** Checks a result against `output`; undefined when the tool declares no output contract. */
  readonly validateOutput: InputValidator<TResult> | undefined;
  readonly onContractViolation: ToolDefinition<TArgs, TResult>['onContractViolation'];
  /** Method syntax keeps a tool of any result type assignable to `AnyTool` (bivariant parameter). */
  readonly formatResult: { format(value: TResult): string }['format'] | undefined;
  readonly examples: NonNullable<ToolDefinition<TArgs, TResult>['examples']>;
  readonly decide: ToolDefinition<TArgs, TResult>['decide'];
  readonly needsApproval: ToolDefinition<TArgs, TResult>['needsApproval'];
  readonly loop: LoopHints | undefined;
  /** Undefined: every call runs (a read tool, or a write tool with `idempotency: false`). */
  readonly idempotency: IdempotencySettings | undefined;
}

/** A tool of any arguments and result: what lists of tools hold. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every argument type.
export type AnyTool = Tool<any, any>;

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
