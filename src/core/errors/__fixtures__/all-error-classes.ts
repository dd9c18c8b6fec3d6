import { GatewayConfigError } from '../../../adapters/gateway/gateway-config-error.js';
import { McpListError } from '../../../adapters/mcp/list-mcp-tools.js';
import { McpCallError } from '../../../adapters/mcp/mcp-call-error.js';
import { ProxyConfigError } from '../../../adapters/mcp/proxy/proxy-config-error.js';
import { ToolModuleError } from '../../../check/tool-module-error.js';
import { ToolFormatError } from '../../../formats/tool-format-error.js';
import { AuditLogError } from '../../../report/audit-log-error.js';
import type { LoopOutcome, StopReason } from '../../loop-outcome.js';
import { createRunState } from '../../run-state.js';
import type { ToolExecutionResult } from '../../tool-execution-result.js';
import { ApprovalError } from '../approval-error.js';
import { CallbackError } from '../callback-error.js';
import { ContractViolationError } from '../contract-violation-error.js';
import { FatalToolError } from '../fatal-tool-error.js';
import { IdempotencyError } from '../idempotency-error.js';
import { InvalidOptionsError } from '../invalid-options-error.js';
import { LoopStoppedError } from '../loop-stopped-error.js';
import { ModelStreamError } from '../model-stream-error.js';
import { ModelTimeoutError } from '../model-timeout-error.js';
import { NoToolCallError } from '../no-tool-call-error.js';
import { PermissionDeniedError } from '../permission-denied-error.js';
import { ResultSerializationError } from '../result-serialization-error.js';
import { RunStateError } from '../run-state-error.js';
import { StoreError } from '../store-error.js';
import { ToolCallLimitExceededError } from '../tool-call-limit-exceeded-error.js';
import { ToolDefinitionError } from '../tool-definition-error.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { ToolInputError } from '../tool-input-error.js';
import { ToolTimeoutError } from '../tool-timeout-error.js';
import { ToolwardenError } from '../toolwarden-error.js';
import { TransientToolError } from '../transient-tool-error.js';
import { UnknownToolError } from '../unknown-tool-error.js';

/** A class of the table: its `isInstance`, and the class it extends (for the pair test). */
export interface ErrorClassEntry {
  readonly errorClass: {
    readonly name: string;
    readonly prototype: object;
    isInstance(value: unknown): boolean;
  };
  /** Builds an instance; undefined for the abstract base. */
  readonly make: (() => ToolwardenError) | undefined;
}

export const partialResult: ToolExecutionResult = { messages: [], results: [], returnDirect: false };

export function stoppedOutcome(reason: StopReason): Extract<LoopOutcome, { type: 'stopped' }> {
  const state = createRunState({ messages: [] });
  return {
    runId: state.runId,
    type: 'stopped',
    reason,
    evidence: { kind: 'ceiling', limit: 'round-trips', max: 1, used: 1 },
    text: '',
    wastedRoundTrips: 0,
    messages: [],
    steps: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    roundTrips: 1,
    toolCalls: 0,
    toolResults: [],
    state,
  };
}

/** Every toolwarden error class, each with a factory. A new class belongs here. */
export const ERROR_CLASSES: readonly ErrorClassEntry[] = [
  { errorClass: ToolwardenError, make: undefined },
  {
    errorClass: ApprovalError,
    make: () => new ApprovalError({ reason: 'already-resumed', runId: 'r', message: 'claimed' }),
  },
  {
    errorClass: CallbackError,
    make: () => new CallbackError({ callback: 'handoff', cause: new Error('queue down'), partialResult }),
  },
  {
    errorClass: ContractViolationError,
    make: () =>
      new ContractViolationError({
        toolName: 't',
        issues: [{ path: '/a', code: 'type', message: 'is wrong' }],
        value: 1,
      }),
  },
  { errorClass: FatalToolError, make: () => new FatalToolError({ message: 'defect' }) },
  {
    errorClass: IdempotencyError,
    make: () =>
      new IdempotencyError({ reason: 'in-progress', toolName: 't', toolCallId: 'c2', claimedBy: 'c1' }),
  },
  {
    errorClass: InvalidOptionsError,
    make: () => new InvalidOptionsError({ option: 'limits.perTool', message: 'no' }),
  },
  {
    errorClass: LoopStoppedError,
    make: () => new LoopStoppedError({ outcome: stoppedOutcome('MAX_ROUND_TRIPS'), message: 'stopped' }),
  },
  {
    errorClass: McpCallError,
    make: () => new McpCallError({ kind: 'transient', toolName: 't', message: 'timed out', rpcCode: -32001 }),
  },
  { errorClass: McpListError, make: () => new McpListError('no tools array') },
  {
    errorClass: ModelStreamError,
    make: () =>
      new ModelStreamError({ reason: 'no-finish', partial: { text: 'Hel', toolCalls: [], parts: 1 } }),
  },
  { errorClass: ModelTimeoutError, make: () => new ModelTimeoutError({ timeoutMs: 1_000 }) },
  { errorClass: NoToolCallError, make: () => new NoToolCallError() },
  { errorClass: PermissionDeniedError, make: () => new PermissionDeniedError({ message: 'no' }) },
  {
    errorClass: ResultSerializationError,
    make: () =>
      new ResultSerializationError({ toolName: 't', reason: 'circular', path: '/self', message: 'cycle' }),
  },
  {
    errorClass: RunStateError,
    make: () => new RunStateError({ reason: 'malformed', message: 'not an object' }),
  },
  {
    errorClass: StoreError,
    make: () => new StoreError({ reason: 'unavailable', operation: 'get', message: 'connection refused' }),
  },
  {
    errorClass: ToolCallLimitExceededError,
    make: () =>
      new ToolCallLimitExceededError({
        message: 'limit',
        scope: 'total',
        limit: 1,
        toolName: 't',
        partialResult,
      }),
  },
  { errorClass: ToolDefinitionError, make: () => new ToolDefinitionError({ toolName: 't', message: 'bad' }) },
  {
    errorClass: ToolExecutionError,
    make: () =>
      new ToolExecutionError({
        message: 'fatal',
        toolName: 't',
        toolCallId: 'c',
        cause: new TypeError('x'),
        partialResult,
      }),
  },
  {
    errorClass: ToolFormatError,
    make: () => new ToolFormatError({ format: 'mcp', path: '', problem: 'bad' }),
  },
  { errorClass: ToolInputError, make: () => new ToolInputError({ message: 'fix it' }) },
  {
    errorClass: ToolModuleError,
    make: () => new ToolModuleError({ modulePath: './x.js', problem: 'not-found', message: 'none' }),
  },
  {
    errorClass: AuditLogError,
    make: () => new AuditLogError({ path: 'audit.jsonl', problem: 'not-found', message: 'none' }),
  },
  {
    errorClass: ProxyConfigError,
    make: () =>
      new ProxyConfigError({ source: 'toolwarden.json', problems: [{ path: '$', message: 'bad' }] }),
  },
  {
    errorClass: GatewayConfigError,
    make: () => new GatewayConfigError({ source: 'gateway.json', problems: [{ path: '$', message: 'bad' }] }),
  },

  { errorClass: ToolTimeoutError, make: () => new ToolTimeoutError({ toolName: 't', timeoutMs: 10 }) },
  {
    errorClass: TransientToolError,
    make: () => new TransientToolError({ message: 'later', retryAfterMs: 5 }),
  },
  {
    errorClass: UnknownToolError,
    make: () =>
      new UnknownToolError({ toolName: 'x', toolCallId: 'c', availableTools: ['t'], message: 'no x' }),
  },
];
