import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ErrorClass } from '../core/error-class.js';
import type { JsonSchema } from '../core/json-schema.js';
import type { InputValidator } from '../schema/input-validator.js';
import type { SchemaCompiler } from '../schema/schema-compiler.js';
import type { CallDecision } from './call-decision.js';
import type { LoopHints } from './loop-hints.js';
import type { ToolContext } from './tool-context.js';
import type { ToolEffect } from './tool-effect.js';

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
  input?: JsonSchema | StandardSchemaV1<unknown, TArgs>;
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
  showErrorMessages?: boolean | ((error: unknown) => boolean);
  /** Tool-message content longer than this is truncated with a marker. */
  maxResultChars?: number;
  /**
   * The contract of the result: a JSON Schema or a Standard Schema. A successful result is checked
   * before it reaches the model (error results are not); what a violation does is `onContractViolation`.
   */
  output?: JsonSchema | StandardSchemaV1<unknown, TResult>;
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
  idempotency?:
    | false
    | {
        /**
         * The tool's own key: calls with the same key are one action (an order id, a request id the client
         * sent). Default: the canonical arguments, so the same call with the same arguments is one action. The
         * key is scoped like the default one (the session, else the turn), and stored only as its SHA-256.
         */
        readonly key?: (
          args: TArgs,
          /** What the key function is given besides the arguments. */
          context: {
            readonly toolName: string;
            /** The caller's session and turn ids, when it gave them. */
            readonly sessionId: string | undefined;
            readonly turnId: string | undefined;
            /** Caller data (a user, a tenant): never shown to the model. */
            readonly data: unknown;
          },
        ) => string;
        /**
         * How a write is kept from running twice (see `DEFAULT_IDEMPOTENCY_MODE` for what each promises). Default
         * `at-most-once`; `at-least-once` for a tool that sets `retries` above 0 (it said a failed attempt may
         * run again).
         */
        readonly mode?: 'at-least-once' | 'at-most-once';
        /** How long the record is kept, in milliseconds (default 24 hours). */
        readonly ttlMs?: number;
        /**
         * How long a started call may take before it is taken to be of a process that died, in milliseconds.
         * Default: the tool's timeout per attempt and the retry delays, plus a margin.
         */
        readonly leaseMs?: number;
      };
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
  readonly showErrorMessages: ToolDefinition<TArgs, TResult>['showErrorMessages'];
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
  readonly idempotency:
    | {
        /** The tool's own key; undefined: the canonical arguments. */
        readonly key: Exclude<ToolDefinition<TArgs, TResult>['idempotency'], false | undefined>['key'];
        readonly mode: 'at-least-once' | 'at-most-once';
        /** How long a record is kept, in milliseconds. */
        readonly ttlMs: number;
        /** Undefined: computed per call from the policy. */
        readonly leaseMs: number | undefined;
      }
    | undefined;
}

/** A tool of any arguments and result: what lists of tools hold. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every argument type.
export type AnyTool = Tool<any, any>;
