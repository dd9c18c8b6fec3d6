import {
  DEFAULT_CONCURRENCY,
  DEFAULT_CONTRACT_VIOLATION_POLICY,
  DEFAULT_LIMIT_POLICY,
  DEFAULT_MAX_ARGUMENT_BYTES,
  DEFAULT_MAX_ARGUMENT_DEPTH,
  DEFAULT_MAX_INVALID_ATTEMPTS,
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_READ_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_UNKNOWN_TOOL_POLICY,
  DEFAULT_WRITE_CONCURRENCY,
  DEFAULT_WRITE_RETRIES,
} from '../defaults.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { AnyTool, ContractViolationPolicy } from '../tools/define-tool.js';
import type { BeforeToolCall } from './before-tool-call.js';
import { type CallLimits, type ResolvedCallLimits, resolveCallLimits } from './call-limits.js';
import type { ErrorClassifier } from './classify-error.js';
import type { ParseArgumentsLimits } from './parse-arguments.js';
import type { WrapToolExecution } from './wrap-tool-execution.js';

/** How the chain treats calls. Every field has a default (see `defaults.ts`). */
export interface ToolExecutionPolicy {
  /** `feedback` (default): the model gets an error naming the tools it may call. `throw`: `UnknownToolError`. */
  readonly unknownTool?: 'feedback' | 'throw';
  readonly limits?: CallLimits;
  /** `throw` (default): `ToolCallLimitExceededError` with the partial result. `feedback`: only the model is told. */
  readonly onLimitExceeded?: 'throw' | 'feedback';
  /** Invalid-argument results per tool and turn before the chain stops trying that tool (default 3). */
  readonly maxInvalidAttempts?: number;
  /** Calls of one response running at once (default 4). */
  readonly concurrency?: number;
  /** Write-tool calls running at once (default 1). */
  readonly writeConcurrency?: number;
  /** Default per-call timeout in milliseconds (a tool's own `timeoutMs` wins). */
  readonly timeoutMs?: number;
  readonly retry?: {
    /** Retries of read tools after a transient failure (default 2); a tool's own `retries` wins. */
    readonly readRetries?: number;
    /** Retries of write tools (default 0). */
    readonly writeRetries?: number;
    readonly baseDelayMs?: number;
    readonly maxDelayMs?: number;
    /** Source of jitter in [0, 1) (default `Math.random`). */
    readonly random?: () => number;
  };
  readonly maxArgumentBytes?: number;
  readonly maxArgumentDepth?: number;
  readonly maxResultChars?: number;
  /** Classifies failures before the built-in policy; return undefined to defer. */
  readonly classifyError?: ErrorClassifier;
  /** What a result that breaks its tool's output contract does (default `feedback`); a tool's own setting wins. */
  readonly onContractViolation?: ContractViolationPolicy;
  /** Decides, before each call runs, whether it runs, is denied or interrupts (after the tool's own hook). */
  readonly beforeToolCall?: BeforeToolCall;
  /** Middleware around one call's timeout, retries and delivery (a tracer runs the tool inside its span). */
  readonly wrapToolExecution?: WrapToolExecution;
}

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
  readonly beforeToolCall: BeforeToolCall | undefined;
  readonly wrapToolExecution: WrapToolExecution | undefined;
  contractPolicyFor(tool: AnyTool): ContractViolationPolicy;
  timeoutFor(tool: AnyTool): number;
  retriesFor(tool: AnyTool): number;
  maxResultCharsFor(tool: AnyTool): number;
}

/** Fills defaults and checks every value now, so bad configuration fails before any tool runs. */
export function resolvePolicy(policy: ToolExecutionPolicy): ResolvedPolicy {
  const retry = policy.retry ?? {};
  const timeoutMs = int(policy.timeoutMs, 'timeoutMs', 1) ?? DEFAULT_TIMEOUT_MS;
  const readRetries = int(retry.readRetries, 'retry.readRetries', 0) ?? DEFAULT_READ_RETRIES;
  const writeRetries = int(retry.writeRetries, 'retry.writeRetries', 0) ?? DEFAULT_WRITE_RETRIES;
  const contractPolicy =
    oneOf(policy.onContractViolation, 'onContractViolation', ['feedback', 'throw', 'warn']) ??
    DEFAULT_CONTRACT_VIOLATION_POLICY;
  const maxResultChars = int(policy.maxResultChars, 'maxResultChars', 64) ?? DEFAULT_MAX_RESULT_CHARS;
  const maxBytes = int(policy.maxArgumentBytes, 'maxArgumentBytes', 2) ?? DEFAULT_MAX_ARGUMENT_BYTES;
  const maxDepth = int(policy.maxArgumentDepth, 'maxArgumentDepth', 1) ?? DEFAULT_MAX_ARGUMENT_DEPTH;
  return {
    unknownTool:
      oneOf(policy.unknownTool, 'unknownTool', ['feedback', 'throw']) ?? DEFAULT_UNKNOWN_TOOL_POLICY,
    limits: resolveCallLimits(policy.limits),
    onLimitExceeded:
      oneOf(policy.onLimitExceeded, 'onLimitExceeded', ['throw', 'feedback']) ?? DEFAULT_LIMIT_POLICY,
    maxInvalidAttempts:
      int(policy.maxInvalidAttempts, 'maxInvalidAttempts', 1) ?? DEFAULT_MAX_INVALID_ATTEMPTS,
    concurrency: int(policy.concurrency, 'concurrency', 1) ?? DEFAULT_CONCURRENCY,
    writeConcurrency: int(policy.writeConcurrency, 'writeConcurrency', 1) ?? DEFAULT_WRITE_CONCURRENCY,
    baseDelayMs: int(retry.baseDelayMs, 'retry.baseDelayMs', 0) ?? DEFAULT_RETRY_BASE_DELAY_MS,
    maxDelayMs: int(retry.maxDelayMs, 'retry.maxDelayMs', 0) ?? DEFAULT_RETRY_MAX_DELAY_MS,
    random: fn(retry.random, 'retry.random') ?? Math.random,
    argumentLimits: Object.freeze({ maxBytes, maxDepth }),
    classifyError: fn(policy.classifyError, 'classifyError'),
    beforeToolCall: fn(policy.beforeToolCall, 'beforeToolCall'),
    wrapToolExecution: fn(policy.wrapToolExecution, 'wrapToolExecution'),
    contractPolicyFor: (tool) => tool.onContractViolation ?? contractPolicy,
    timeoutFor: (tool) => tool.timeoutMs ?? timeoutMs,
    retriesFor: (tool) => tool.retries ?? (tool.effect === 'write' ? writeRetries : readRetries),
    maxResultCharsFor: (tool) => tool.maxResultChars ?? maxResultChars,
  };
}

function int(value: unknown, option: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidOptionsError({ option, message: `must be an integer >= ${min}, got ${String(value)}` });
  }
  return value;
}

function oneOf<T extends string>(value: unknown, option: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) {
    throw new InvalidOptionsError({
      option,
      message: `must be one of ${allowed.join(', ')}, got ${String(value)}`,
    });
  }
  return value as T;
}

function fn<T>(value: T | undefined, option: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new InvalidOptionsError({ option, message: 'must be a function' });
  return value;
}
