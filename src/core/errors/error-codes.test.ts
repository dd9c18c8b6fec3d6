import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { explainStop } from '../../run/explain-stop.js';
import type { StopReason as LoopStopReason } from '../loop-outcome.js';
import type { ToolErrorCode } from '../tool-execution-result.js';
import { ERROR_CLASSES, stoppedOutcome } from './__fixtures__/all-error-classes.js';
import { CallbackError } from './callback-error.js';
import {
  blameOf,
  type CodeEntry,
  ERROR_CODES,
  renderCodeTable,
  type StopReason,
  type ToolMessageCode,
  type ToolwardenCode,
} from './error-codes.js';
import { LoopStoppedError } from './loop-stopped-error.js';
import { RunStateError } from './run-state-error.js';
import { ToolwardenError } from './toolwarden-error.js';

const entries = Object.entries(ERROR_CODES) as [ToolwardenCode, CodeEntry][];
const instances = ERROR_CLASSES.flatMap((entry) => (entry.make === undefined ? [] : [entry.make()]));

describe('ERROR_CODES', () => {
  it('holds the code of every error class, which names that class; every error carries the blame of its code', () => {
    for (const error of instances) {
      const entry: CodeEntry | undefined = ERROR_CODES[error.code];
      expect(entry, error.name).toBeDefined();
      expect(entry?.errorClasses, error.code).toContain(error.name);
      expect(error.blame).toBe(blameOf(error.code));
      expect(ToolwardenError.isInstance(error)).toBe(true);
    }
  });

  it('names only classes that exist, and every class somewhere', () => {
    const names = new Set(
      ERROR_CLASSES.filter((entry) => entry.make !== undefined).map((e) => e.errorClass.name),
    );
    const named = new Set(entries.flatMap(([, entry]) => entry.errorClasses));
    expect([...named].sort()).toEqual([...names].sort());
  });

  it('gives every code one line of meaning and a known blame', () => {
    for (const [code, entry] of entries) {
      expect(code).toMatch(/^[A-Z]+(?:_[A-Z]+)*$/);
      expect(['model', 'tool', 'caller', 'runtime']).toContain(entry.blame);
      expect(entry.meaning, code).toMatch(/^\S.*\.$/);
      expect(entry.meaning, code).not.toMatch(/[\n|]/);
    }
  });

  it('says which tool-message code the model sees when it is not the code itself', () => {
    for (const [code, entry] of entries) {
      if (entry.toolMessage) expect(entry.modelSees, code).toBeUndefined();
      const sees = typeof entry.modelSees === 'string' ? [entry.modelSees] : (entry.modelSees ?? []);
      for (const seen of sees) expect(ERROR_CODES[seen as ToolwardenCode]?.toolMessage, code).toBe(true);
    }
    expect(ERROR_CODES.TOOL_TIMEOUT.modelSees).toBe('TOOL_UNAVAILABLE');
    expect(ERROR_CODES.TOOL_FATAL.modelSees).toBe('INTERNAL_ERROR');
    expect(ERROR_CODES.TOOL_DEFECT.modelSees).toBe('INTERNAL_ERROR');
    expect(ERROR_CODES.MCP_CALL_ERROR.modelSees).toEqual([
      'TOOL_ERROR',
      'TOOL_UNAVAILABLE',
      'INTERNAL_ERROR',
    ]);
  });

  it('holds every tool-message code of the chain', () => {
    expectTypeOf<ToolErrorCode>().toExtend<ToolwardenCode>();
    const chainCodes: readonly ToolMessageCode[] = [
      'UNKNOWN_TOOL',
      'INVALID_ARGUMENTS',
      'INVALID_JSON',
      'ARGUMENTS_TOO_LARGE',
      'ARGUMENTS_TOO_DEEP',
      'FORBIDDEN_KEY',
      'TOO_MANY_INVALID_ATTEMPTS',
      'TOOL_CALL_LIMIT',
      'TOOL_ERROR',
      'TOOL_UNAVAILABLE',
      'PERMISSION_DENIED',
      'CONTRACT_VIOLATION',
      'INTERNAL_ERROR',
      'ABORTED',
      'IDEMPOTENCY_CONFLICT',
      'ALREADY_IN_PROGRESS',
      'OUTCOME_UNKNOWN',
    ];
    const toolMessageCodes = entries.filter(([, entry]) => entry.toolMessage).map(([code]) => code);
    expect(toolMessageCodes.sort()).toEqual([...chainCodes].sort());
  });
});

describe('stop reasons', () => {
  const stopCodes = entries.filter(([, entry]) => entry.stop === true).map(([code]) => code as StopReason);

  it('are the codes themselves, and the loop has exactly these', () => {
    expectTypeOf<LoopStopReason>().toEqualTypeOf<StopReason>();
    expectTypeOf<StopReason>().toExtend<ToolwardenCode>();
    expect([...stopCodes].sort()).toEqual(
      [
        'ABORTED',
        'BUDGET_EXHAUSTED',
        'LOOP_DETECTED',
        'MAX_ROUND_TRIPS',
        'MODEL_ERROR',
        'TOOL_CALL_LIMIT',
        'TOOL_FATAL',
        'STOP_CONDITION',
        'CALLBACK_FAILED',
        'STORE_UNAVAILABLE',
      ].sort(),
    );
  });

  it('are the code of LoopStoppedError, which keeps the outcome and its message', () => {
    for (const code of stopCodes) {
      const outcome = stoppedOutcome(code);
      const error = new LoopStoppedError({ outcome, message: explainStop(outcome) });
      expect(error).toMatchObject({ code, blame: blameOf(code), outcome, cause: outcome.evidence });
      expect(error.message).toBe(explainStop(outcome));
      expect(error.message).toContain(`(${code})`);
      expect(LoopStoppedError.isInstance(error)).toBe(true);
    }
  });
});

describe('renderCodeTable', () => {
  it('is what docs/reference.md shows between its markers', () => {
    const readme = readFileSync(new URL('../../../docs/reference.md', import.meta.url), 'utf8').replaceAll(
      '\r\n',
      '\n',
    );
    const section = /<!-- codes:start -->\n([\s\S]*?)\n<!-- codes:end -->/.exec(readme)?.[1];
    expect(
      section,
      'docs/reference.md has no <!-- codes:start --> ... <!-- codes:end --> section',
    ).toBeDefined();
    expect(section, 'the docs/reference.md table is stale: paste renderCodeTable() between the markers').toBe(
      renderCodeTable(),
    );
  });

  it('has one row per code, in the order of the table', () => {
    const rows = renderCodeTable().split('\n').slice(2);
    expect(rows.map((row) => /^\| `([A-Z_]+)` \|/.exec(row)?.[1])).toEqual(entries.map(([code]) => code));
    expect(rows.every((row) => row.split(' | ').length === 6)).toBe(true);
  });
});

describe('CallbackError', () => {
  it('keeps the callback, the cause, the partial result and the outcome', () => {
    const cause = new Error('queue down');
    const partialResult = { messages: [], results: [], returnDirect: false };
    const outcome = stoppedOutcome('ABORTED');
    const error = new CallbackError({ callback: 'store.save', cause, partialResult, outcome });
    expect(error).toMatchObject({
      code: 'CALLBACK_FAILED',
      blame: 'caller',
      name: 'CallbackError',
      callback: 'store.save',
      cause,
      partialResult,
      outcome,
      message: 'The store.save callback failed: queue down',
    });
    expect(new CallbackError({ callback: 'cost', cause, message: 'cost returned NaN' }).message).toBe(
      'cost returned NaN',
    );
    expect(new CallbackError({ callback: 'cost', cause: 42 })).toMatchObject({
      message: 'The cost callback failed',
      partialResult: undefined,
      outcome: undefined,
    });
  });

  it('builds its message from a hostile or huge cause without throwing', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(new CallbackError({ callback: 'handoff', cause: hostile }).message).toBe(
      'The handoff callback failed',
    );
    const huge = new CallbackError({ callback: 'handoff', cause: new Error('x'.repeat(1_000_000)) });
    expect(huge.message.length).toBeLessThan(300);
  });
});

describe('RunStateError', () => {
  it('keeps the reason, the path and the cause, and says both in the message', () => {
    const cause = new SyntaxError('Unexpected end of JSON input');
    const error = new RunStateError({
      reason: 'malformed',
      path: '/pendingCalls/0/id',
      message: 'not a string',
      cause,
    });
    expect(error).toMatchObject({
      code: 'INVALID_RUN_STATE',
      blame: 'caller',
      name: 'RunStateError',
      reason: 'malformed',
      path: '/pendingCalls/0/id',
      cause,
      message: 'Cannot resume the run state (malformed at /pendingCalls/0/id): not a string',
    });
    expect(new RunStateError({ reason: 'unsupported-version', message: 'schemaVersion 99' }).message).toBe(
      'Cannot resume the run state (unsupported-version): schemaVersion 99',
    );
    const deep = new RunStateError({ reason: 'tampered', path: `/${'k'.repeat(100_000)}`, message: 'no' });
    expect(deep.path).toHaveLength(100_001);
    expect(deep.message.length).toBeLessThan(300);
  });
});
