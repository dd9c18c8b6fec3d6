import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContractViolationError } from '../../core/errors/contract-violation-error.js';
import { PermissionDeniedError } from '../../core/errors/permission-denied-error.js';
import { ToolInputError } from '../../core/errors/tool-input-error.js';
import { TransientToolError } from '../../core/errors/transient-tool-error.js';
import { recordEvents } from '../../testing/record-events.js';
import { defineTool } from '../../tools/define-tool.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';
import { forgetIdempotencyRecord } from './forget-idempotency-record.js';
import { REPLAYED_FAILURE_TEXT, REPLAYED_SUCCESS_TEXT } from './idempotency-answers.js';

// What a write's outcome leaves in its record (the table in docs/approvals-and-state.md, "Idempotent writes"): a success
// is recorded, a failure before the write took effect is released, a failure that does not say is unknown.

const call = { name: 'charge', arguments: { order: 'A-1' } };
const unavailable = () => {
  throw new TransientToolError({ message: 'payment service returned 503' });
};
/** Never settles, so the call times out. */
const hang = () => new Promise(() => {});
const defect = () => {
  throw new TypeError('undefined is not a function');
};

afterEach(() => {
  vi.useRealTimers();
});

describe('a failure before the write took effect is released: the next identical call runs', () => {
  it('fix the precondition, then retry: a deploy refused by a business rule runs once the migrations ran', async () => {
    let migrated = false;
    let deployed = 0;
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys a version.',
      effect: 'write',
      input: { type: 'object', properties: { version: { type: 'string' } }, required: ['version'] },
      execute: () => {
        if (!migrated) throw new ToolInputError({ message: 'run the migrations first' });
        deployed++;
        return 'deployed';
      },
    });
    const runtime = createToolRuntime({ tools: [deploy] });
    const release = { name: 'deploy', arguments: { version: '2.0' } };
    expect(await runtime.executeToolCall(release, { sessionId: 's' })).toMatchObject({
      isError: true,
      content: 'TOOL_ERROR: run the migrations first',
    });
    migrated = true;
    const retried = await runtime.executeToolCall(release, { sessionId: 's' });
    expect(retried).toMatchObject({ isError: false, content: '"deployed"', result: { attempts: 1 } });
    expect(retried.type === 'answered' && retried.result.replayOf).toBeUndefined();
    expect(deployed).toBe(1);
    // The deploy took effect: from now on a true duplicate is answered from its record.
    expect(await runtime.executeToolCall(release, { sessionId: 's' })).toMatchObject({
      content: `${REPLAYED_SUCCESS_TEXT}"deployed"`,
    });
    expect(deployed).toBe(1);
  });

  it.each([
    ['a refusal (ToolInputError)', () => new ToolInputError({ message: 'Card declined.' })],
    ['a denial (PermissionDeniedError)', () => new PermissionDeniedError({ message: 'over the limit' })],
    ['an error the model can fix', () => new Error('no such order')],
  ])('%s by the tool', async (_what, error) => {
    let failing = true;
    const { tool, ledger } = chargeTool({
      run: () => {
        if (failing) throw error();
        return 'charged';
      },
    });
    const runtime = createToolRuntime({ tools: [tool] });
    const failed = await runtime.executeToolCall(call, { sessionId: 's' });
    expect(failed).toMatchObject({ isError: true });
    expect(failed.type === 'answered' && failed.content).not.toContain(REPLAYED_FAILURE_TEXT);
    failing = false;
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({
      isError: false,
      content: '"charged"',
    });
    expect(ledger.charges).toHaveLength(2);
  });
});

describe('a failure after the tool returned is recorded: the write took effect', () => {
  it('a result withheld for breaking its output contract is replayed as it was, not run again', async () => {
    const { tool, ledger } = chargeTool({
      run: () => ({ receipt: 7 }),
      output: { type: 'object', properties: { receipt: { type: 'string' } } },
    });
    const runtime = createToolRuntime({ tools: [tool] });
    const first = await runtime.executeToolCall(call, { sessionId: 's' });
    expect(first).toMatchObject({ isError: true, code: 'CONTRACT_VIOLATION' });
    const second = await runtime.executeToolCall(call, { sessionId: 's' });
    expect(second).toMatchObject({ isError: true, code: 'CONTRACT_VIOLATION' });
    expect(second.type === 'answered' && second.content).toContain(REPLAYED_FAILURE_TEXT);
    expect(
      second.type === 'answered' && second.result.type === 'error' && second.result.error,
    ).not.toBeInstanceOf(ContractViolationError);
    expect(ledger.charges).toHaveLength(1);
  });
});

describe('at most once (the default): a call cut off after its tool started has an unknown outcome', () => {
  it.each([
    ['a transient failure', unavailable, 'TOOL_UNAVAILABLE'],
    ['a timeout', hang, 'TOOL_UNAVAILABLE'],
    ['a defect', defect, 'INTERNAL_ERROR'],
  ])(
    'after %s the next identical call is refused OUTCOME_UNKNOWN, not run, until the record is forgotten',
    async (_what, run, code) => {
      // The tool's timeout passes on a fake clock.
      vi.useFakeTimers();
      let failing = true;
      const { tool, ledger } = chargeTool({ timeoutMs: 20, run: () => (failing ? run() : 'charged') });
      expect(tool.idempotency?.mode).toBe('at-most-once');
      const runtime = createToolRuntime({ tools: [tool], retry: { writeRetries: 3 } });
      const recorder = recordEvents();
      const firstRun = runtime
        .executeToolCalls({
          messages: [{ role: 'user', content: 'charge it' }],
          response: {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', ...call, arguments: '{"order":"A-1"}' }],
          },
          sessionId: 's',
          onEvent: recorder.listener,
        })
        .catch((thrown: { partialResult?: { results: unknown[] } }) => thrown.partialResult);
      await vi.advanceTimersByTimeAsync(20);
      const first = await firstRun;
      expect(first?.results).toMatchObject([{ code, attempts: 1 }]);
      // The caller is told at once: the event names the call and what happened.
      expect(recorder.ofType('idempotency-warn')).toMatchObject([
        { action: 'outcome-unknown', toolCallId: 'c1', toolName: 'charge' },
      ]);
      failing = false;
      const refused = await runtime.executeToolCall(call, { sessionId: 's' });
      expect(refused).toMatchObject({ isError: true, code: 'OUTCOME_UNKNOWN', errorClass: 'invalid-input' });
      expect(refused.type === 'answered' && refused.content).toBe(
        "OUTCOME_UNKNOWN: An identical earlier call to tool 'charge' was interrupted before its outcome was recorded: it may or may not have taken effect, so this call was not run. Do not retry it; tell the user the outcome has to be checked.",
      );
      expect(
        refused.type === 'answered' && refused.result.type === 'error' && refused.result.error,
      ).toMatchObject({
        name: 'IdempotencyError',
        claimedBy: 'c1',
        message: expect.stringContaining('forgetIdempotencyRecord lets the call run'),
      });
      expect(ledger.charges).toHaveLength(1);
      // Someone checked: the charge did not go through. Forgotten, the next call runs.
      await forgetIdempotencyRecord(runtime, {
        toolName: 'charge',
        arguments: call.arguments,
        sessionId: 's',
      });
      expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
      expect(ledger.charges).toHaveLength(2);
    },
  );

  it('an abort while the tool runs leaves it unknown too', async () => {
    const controller = new AbortController();
    const { tool, ledger } = chargeTool({
      run: () => {
        controller.abort(new Error('stop'));
        return 'charged';
      },
    });
    const runtime = createToolRuntime({ tools: [tool] });
    await expect(
      runtime.executeToolCall(call, { sessionId: 's', signal: controller.signal }),
    ).rejects.toThrow('stop');
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({
      code: 'OUTCOME_UNKNOWN',
    });
    expect(ledger.charges).toHaveLength(1);
  });

  it('a call aborted before the tool started is free again (nothing was claimed)', async () => {
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool] });
    await expect(
      runtime.executeToolCall(call, { sessionId: 's', signal: AbortSignal.abort(new Error('gone')) }),
    ).rejects.toThrow('gone');
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(1);
  });
});

describe("at least once (a tool's own choice): the same failures free the call", () => {
  it.each([
    ['a transient failure', unavailable, 'TOOL_UNAVAILABLE'],
    ['a timeout', hang, 'TOOL_UNAVAILABLE'],
    ['a defect', defect, 'INTERNAL_ERROR'],
  ])('%s frees the call: the next identical call runs', async (_what, run, code) => {
    // The tool's timeout passes on a fake clock.
    vi.useFakeTimers();
    let failing = true;
    const { tool, ledger } = chargeTool({
      timeoutMs: 20,
      idempotency: { mode: 'at-least-once' },
      run: () => (failing ? run() : 'charged'),
    });
    const runtime = createToolRuntime({ tools: [tool] });
    const firstRun = runtime
      .executeToolCall(call, { sessionId: 's' })
      .catch((thrown: { partialResult?: { results: unknown[] } }) => thrown.partialResult?.results);
    await vi.advanceTimersByTimeAsync(20);
    const failed = await firstRun;
    expect(JSON.stringify(failed)).toContain(code);
    failing = false;
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(2);
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(2);
  });

  it('an abort while the tool runs frees the call too', async () => {
    const controller = new AbortController();
    const { tool, ledger } = chargeTool({
      idempotency: { mode: 'at-least-once' },
      run: (_args, _context, count) => {
        if (count === 1) controller.abort(new Error('stop'));
        return 'charged';
      },
    });
    const runtime = createToolRuntime({ tools: [tool] });
    await expect(
      runtime.executeToolCall(call, { sessionId: 's', signal: controller.signal }),
    ).rejects.toThrow('stop');
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(ledger.charges).toHaveLength(2);
  });

  it("a tool that sets retries is at least once: the chain's retries run under one claim, and what they end with is recorded", async () => {
    const { tool, ledger } = chargeTool({
      retries: 2,
      run: (_args, _context, count) => (count < 3 ? unavailable() : 'charged'),
    });
    expect(tool.idempotency?.mode).toBe('at-least-once');
    const runtime = createToolRuntime({ tools: [tool], retry: { baseDelayMs: 0 } });
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ content: '"charged"' });
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(3);
  });
});
