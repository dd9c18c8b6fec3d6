import type { ErrorClass } from '../../core/error-class.js';
import { ERROR_CODES } from '../../core/errors/error-codes.js';
import { StoreError } from '../../core/errors/store-error.js';
import type { ToolCallResult, ToolErrorCode } from '../../core/tool-execution-result.js';
import { isJsonData } from './json-data.js';

/**
 * What the store keeps for one idempotent write, under its record key (see `idempotencyKeyOf`). Written by
 * compare-and-set only: `started` when a process claims the call (only if there is no record), then
 * `completed` with what the model saw, or `unknown` when the call was cut off and may have acted. A
 * `started` record older than its lease belongs to a process that died. Holds no key and no arguments:
 * only their SHA-256 (`argumentsDigest`), to tell a tool's own key reused with other arguments. Its
 * `claim` is written as the scope's latest write with it (see `latest-write.ts`).
 */
export type IdempotencyRecord =
  | (RecordBase & {
      readonly state: 'started';
      /** `Date.now()` of the claim, in the claiming process. */
      readonly startedAt: number;
      readonly leaseMs: number;
    })
  | (RecordBase & { readonly state: 'completed'; readonly result: RecordedResult })
  | (RecordBase & { readonly state: 'unknown' });

interface RecordBase {
  /** The version of this shape. */
  readonly v: 1;
  /** SHA-256 (hex) of the call's canonical arguments. */
  readonly argumentsDigest: string;
  /** The call that claimed it (the one a replay is of). */
  readonly toolCallId: string;
  /**
   * A random id of the claim, the same in the record's every state; absent in a record written before
   * claims had one, which then is never the scope's latest write.
   */
  readonly claim?: string;
}

/** A result as the model saw it, and the tool's value when it is plain JSON. */
export interface RecordedResult {
  readonly content: string;
  readonly isError: boolean;
  readonly errorCode?: ToolErrorCode;
  readonly errorClass?: ErrorClass;
  readonly truncated?: boolean;
  readonly value?: unknown;
}

/** The result to record: what the model saw, with the value only when it survives JSON unchanged. */
export function recordedResult(result: ToolCallResult): RecordedResult {
  if (result.type === 'error') {
    return {
      content: result.content,
      isError: true,
      errorCode: result.code,
      errorClass: result.errorClass,
    };
  }
  return {
    content: result.content,
    isError: false,
    truncated: result.truncated,
    ...(result.value !== undefined && isJsonData(result.value) ? { value: result.value } : {}),
  };
}

const CLASSES: ReadonlySet<string> = new Set(['invalid-input', 'transient', 'denied', 'fatal', 'aborted']);
const DIGEST = /^[0-9a-f]{64}$/;

/**
 * The record in a stored value. Anything else (another version, a value toolwarden did not write) is a
 * `StoreError` (`corrupt`): nobody can say whether the call ran, so it is refused as unavailable.
 */
export function readRecord(value: unknown): IdempotencyRecord {
  const record = value as Partial<Record<string, unknown>> | null;
  if (
    typeof record !== 'object' ||
    record === null ||
    record.v !== 1 ||
    typeof record.argumentsDigest !== 'string' ||
    !DIGEST.test(record.argumentsDigest) ||
    typeof record.toolCallId !== 'string'
  ) {
    throw corrupt('not an idempotency record of version 1');
  }
  if (record.claim !== undefined && typeof record.claim !== 'string')
    throw corrupt('a claim that is not text');
  const base = {
    v: 1,
    argumentsDigest: record.argumentsDigest,
    toolCallId: record.toolCallId,
    ...(record.claim === undefined ? {} : { claim: record.claim }),
  } as const;
  switch (record.state) {
    case 'started':
      if (!isCount(record.startedAt) || !isCount(record.leaseMs)) {
        throw corrupt('a started record without its lease');
      }
      return { ...base, state: 'started', startedAt: record.startedAt, leaseMs: record.leaseMs };
    case 'unknown':
      return { ...base, state: 'unknown' };
    case 'completed':
      if (!isRecordedResult(record.result)) throw corrupt('a completed record without its result');
      return { ...base, state: 'completed', result: record.result };
    default:
      throw corrupt('an unknown record state');
  }
}

function isRecordedResult(value: unknown): value is RecordedResult {
  if (typeof value !== 'object' || value === null) return false;
  const result = value as Partial<Record<string, unknown>>;
  if (typeof result.content !== 'string' || typeof result.isError !== 'boolean') return false;
  if (!result.isError) return result.truncated === undefined || typeof result.truncated === 'boolean';
  return (
    typeof result.errorCode === 'string' &&
    isToolMessageCode(result.errorCode) &&
    typeof result.errorClass === 'string' &&
    CLASSES.has(result.errorClass)
  );
}

/** A code the chain writes at the start of a tool message (a record cannot make up another). */
function isToolMessageCode(code: string): boolean {
  return Object.hasOwn(ERROR_CODES, code) && ERROR_CODES[code as keyof typeof ERROR_CODES].toolMessage;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function corrupt(message: string): StoreError {
  return new StoreError({ reason: 'corrupt', operation: 'get', message });
}
