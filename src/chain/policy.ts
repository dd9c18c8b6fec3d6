import {
  DEFAULT_CONCURRENCY,
  DEFAULT_CONTRACT_VIOLATION_POLICY,
  DEFAULT_DENIED_TEXT,
  DEFAULT_LIMIT_POLICY,
  DEFAULT_MAX_ARGUMENT_BYTES,
  DEFAULT_MAX_ARGUMENT_DEPTH,
  DEFAULT_MAX_INVALID_ATTEMPTS,
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_READ_ON_STORE_FAILURE,
  DEFAULT_READ_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_SHOW_ERROR_MESSAGES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_UNKNOWN_TOOL_POLICY,
  DEFAULT_WRITE_CONCURRENCY,
  DEFAULT_WRITE_RETRIES,
} from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { Store } from '../core/store.js';
import type { ShowErrorMessages } from '../gate/show-error-messages.js';
import {
  checkChoice,
  checkFlagOrFunction,
  checkFunction,
  checkNumberOption,
  describeOptionValue,
} from '../options/check-option.js';
import type { OptionNames } from '../options/check-option-names.js';
import { MemoryStore } from '../store/memory-store.js';
import type { AnyTool, ContractViolationPolicy, Decide } from '../tools/define-tool.js';
import { effectRules } from '../tools/tool-effect.js';
import { type ResolvedCallLimits, resolveCallLimits } from './call-limits.js';
import type { ErrorClassifier } from './classify-error.js';
import type { ParseArgumentsLimits } from './parse-arguments.js';
import type { ToolExecutionPolicy } from './tool-runtime-options.js';
import type { WrapCallStep } from './wrap-call-step.js';
import type { WrapToolExecution } from './wrap-tool-execution.js';

export type { ToolExecutionPolicy } from './tool-runtime-options.js';

/** Every policy option, by name: they build a runtime (`createToolRuntime`, or `runToolLoop` given tools), never go next to one. */
export const POLICY_OPTIONS: OptionNames<ToolExecutionPolicy> = {
  unknownTool: true,
  limits: true,
  onLimitExceeded: true,
  maxInvalidAttempts: true,
  concurrency: true,
  writeConcurrency: true,
  timeoutMs: true,
  retry: true,
  maxArgumentBytes: true,
  maxArgumentDepth: true,
  maxResultChars: true,
  classifyError: true,
  showErrorMessages: true,
  onContractViolation: true,
  decide: true,
  deniedText: true,
  wrapToolExecution: true,
  store: true,
  onStoreFailure: true,
};

/** A policy with every default filled in and every value checked: what a runtime runs with. */
export interface ResolvedPolicy {
  readonly unknownTool: 'feedback' | 'throw';
  readonly limits: ResolvedCallLimits;
  readonly onLimitExceeded: 'throw' | 'feedback';
  readonly maxInvalidAttempts: number;
  readonly concurrency: number;
  readonly writeConcurrency: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly random: () => number;
  /** `maxArgumentBytes` and `maxArgumentDepth`, as `parseArguments` takes them. */
  readonly argumentLimits: ParseArgumentsLimits;
  readonly classifyError: ErrorClassifier | undefined;
  readonly decide: Decide | undefined;
  readonly deniedText: string;
  readonly wrapToolExecution: WrapToolExecution | undefined;
  /** A driver's wrapper around each admitted call's record and execution (see `WrapCallStep`); never a user option. */
  readonly wrapCallStep: WrapCallStep | undefined;
  readonly store: Store;
  readonly onStoreFailure: 'open' | 'closed';
  contractPolicyFor(tool: AnyTool): ContractViolationPolicy;
  timeoutFor(tool: AnyTool): number;
  retriesFor(tool: AnyTool): number;
  maxResultCharsFor(tool: AnyTool): number;
  /** The tool's `showErrorMessages`, else the policy's, else `DEFAULT_SHOW_ERROR_MESSAGES`. */
  showErrorMessagesFor(tool: AnyTool): ShowErrorMessages;
}

/** What a driver of runs (not a user) sets on the runtimes it makes (see `createDrivenRuntime`). */
export interface RuntimeDriver {
  readonly wrapCallStep?: WrapCallStep;
}

/** Fills defaults and checks every value now, so bad configuration fails before any tool runs. */
export function resolvePolicy(policy: ToolExecutionPolicy, driver: RuntimeDriver = {}): ResolvedPolicy {
  const retry = policy.retry ?? {};
  const timeoutMs =
    checkNumberOption(policy.timeoutMs, { option: 'timeoutMs', min: 1, timer: true }) ?? DEFAULT_TIMEOUT_MS;
  const readRetries =
    checkNumberOption(retry.readRetries, { option: 'retry.readRetries', min: 0 }) ?? DEFAULT_READ_RETRIES;
  const writeRetries =
    checkNumberOption(retry.writeRetries, { option: 'retry.writeRetries', min: 0 }) ?? DEFAULT_WRITE_RETRIES;
  const contractPolicy =
    checkChoice(policy.onContractViolation, {
      option: 'onContractViolation',
      choices: ['feedback', 'throw', 'warn'],
    }) ?? DEFAULT_CONTRACT_VIOLATION_POLICY;
  const maxResultChars =
    checkNumberOption(policy.maxResultChars, { option: 'maxResultChars', min: 64 }) ??
    DEFAULT_MAX_RESULT_CHARS;
  const maxBytes =
    checkNumberOption(policy.maxArgumentBytes, { option: 'maxArgumentBytes', min: 2 }) ??
    DEFAULT_MAX_ARGUMENT_BYTES;
  const showErrorMessages =
    checkFlagOrFunction(policy.showErrorMessages, { option: 'showErrorMessages' }) ??
    DEFAULT_SHOW_ERROR_MESSAGES;
  const maxDepth =
    checkNumberOption(policy.maxArgumentDepth, { option: 'maxArgumentDepth', min: 1 }) ??
    DEFAULT_MAX_ARGUMENT_DEPTH;
  return {
    unknownTool:
      checkChoice(policy.unknownTool, { option: 'unknownTool', choices: ['feedback', 'throw'] }) ??
      DEFAULT_UNKNOWN_TOOL_POLICY,
    limits: resolveCallLimits(policy.limits),
    onLimitExceeded:
      checkChoice(policy.onLimitExceeded, { option: 'onLimitExceeded', choices: ['throw', 'feedback'] }) ??
      DEFAULT_LIMIT_POLICY,
    maxInvalidAttempts:
      checkNumberOption(policy.maxInvalidAttempts, { option: 'maxInvalidAttempts', min: 1 }) ??
      DEFAULT_MAX_INVALID_ATTEMPTS,
    concurrency:
      checkNumberOption(policy.concurrency, { option: 'concurrency', min: 1 }) ?? DEFAULT_CONCURRENCY,
    writeConcurrency:
      checkNumberOption(policy.writeConcurrency, { option: 'writeConcurrency', min: 1 }) ??
      DEFAULT_WRITE_CONCURRENCY,
    baseDelayMs:
      checkNumberOption(retry.baseDelayMs, { option: 'retry.baseDelayMs', min: 0, timer: true }) ??
      DEFAULT_RETRY_BASE_DELAY_MS,
    maxDelayMs:
      checkNumberOption(retry.maxDelayMs, { option: 'retry.maxDelayMs', min: 0, timer: true }) ??
      DEFAULT_RETRY_MAX_DELAY_MS,
    random: checkFunction(retry.random, { option: 'retry.random' }) ?? Math.random,
    argumentLimits: Object.freeze({ maxBytes, maxDepth }),
    classifyError: checkFunction(policy.classifyError, { option: 'classifyError' }),
    decide: checkFunction(policy.decide, { option: 'decide' }),
    deniedText: checkDeniedText(policy.deniedText),
    wrapToolExecution: checkFunction(policy.wrapToolExecution, { option: 'wrapToolExecution' }),
    wrapCallStep: driver.wrapCallStep,
    store: checkStore(policy.store) ?? new MemoryStore(),
    onStoreFailure:
      checkChoice(policy.onStoreFailure, { option: 'onStoreFailure', choices: ['open', 'closed'] }) ??
      DEFAULT_READ_ON_STORE_FAILURE,
    contractPolicyFor: (tool) => tool.onContractViolation ?? contractPolicy,
    timeoutFor: (tool) => tool.timeoutMs ?? timeoutMs,
    // An at-most-once write and a tool of unknown effect are never retried: a failed attempt may have acted
    // (see tool-effect.ts and `DEFAULT_IDEMPOTENCY_MODE`).
    retriesFor: (tool) => {
      const rules = effectRules(tool.effect);
      if (tool.idempotency?.mode === 'at-most-once' || !rules.retryable) return 0;
      return tool.retries ?? (rules.retriedByDefault ? readRetries : writeRetries);
    },
    maxResultCharsFor: (tool) => tool.maxResultChars ?? maxResultChars,
    showErrorMessagesFor: (tool) => tool.showErrorMessages ?? showErrorMessages,
  };
}

/** Characters of `deniedText`, at most: it is one short sentence for the model. */
const MAX_DENIED_TEXT_CHARS = 1000;

function checkDeniedText(text: unknown): string {
  if (text === undefined) return DEFAULT_DENIED_TEXT;
  if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_DENIED_TEXT_CHARS) {
    throw new InvalidOptionsError({
      option: 'deniedText',
      message: `must be a non-empty string of at most ${MAX_DENIED_TEXT_CHARS} characters, got ${describeOptionValue(text)}`,
    });
  }
  return text;
}

/** A store must have the port's methods (checked once, so a wrong object fails before anything runs). */
function checkStore(store: unknown): Store | undefined {
  if (store === undefined) return undefined;
  const methods = ['get', 'set', 'delete', 'reserve', 'release'] as const;
  const missing =
    typeof store === 'object' && store !== null
      ? methods.filter((name) => typeof (store as Record<string, unknown>)[name] !== 'function')
      : methods;
  if (missing.length > 0) {
    throw new InvalidOptionsError({
      option: 'store',
      message: `must implement the Store port (missing ${missing.join(', ')}): MemoryStore, toolwarden/sqlite, toolwarden/redis or toolwarden/postgres`,
    });
  }
  return store as Store;
}
