import { describe, expect, it } from 'vitest';
import { PermissionDeniedError } from '../../errors/permission-denied-error.js';
import { TransientToolError } from '../../errors/transient-tool-error.js';
import { createToolRuntime } from '../tool-runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';
import { REPLAYED_FAILURE_TEXT } from './idempotency-answers.js';

const call = { name: 'charge', arguments: { order: 'A-1' } };
const unavailable = () => {
  throw new TransientToolError({ message: 'payment service returned 503' });
};
/** Never settles, so the call times out. */
const hang = () => new Promise(() => {});

describe('at least once (the default): what is recorded after a call', () => {
  it.each([
    ['a transient failure', unavailable, 'TOOL_UNAVAILABLE'],
    ['a timeout', hang, 'TOOL_UNAVAILABLE'],
  ])('%s frees the call: the next identical call runs', async (_what, run, code) => {
    let failing = true;
    const { tool, ledger } = chargeTool({
      timeoutMs: 20,
      run: () => (failing ? run() : 'charged'),
    });
    const runtime = createToolRuntime({ tools: [tool] });
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ code });
    failing = false;
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(2);
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(2);
  });

  it('an abort while the tool runs frees the call too', async () => {
    const controller = new AbortController();
    const { tool, ledger } = chargeTool({
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

  it("the chain's own retries run under one claim, and what they end with is recorded", async () => {
    const { tool, ledger } = chargeTool({
      retries: 2,
      run: (_args, _context, count) => (count < 3 ? unavailable() : 'charged'),
    });
    const runtime = createToolRuntime({ tools: [tool], retry: { baseDelayMs: 0 } });
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ content: '"charged"' });
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(3);
  });

  it('a denial by the tool is recorded, and replayed as a denial', async () => {
    const { tool, ledger } = chargeTool({
      run: () => {
        throw new PermissionDeniedError({ message: 'over the limit of this card' });
      },
    });
    const runtime = createToolRuntime({ tools: [tool] });
    await runtime.executeToolCall(call, { sessionId: 's' });
    const replayed = await runtime.executeToolCall(call, { sessionId: 's' });
    expect(replayed).toMatchObject({ code: 'PERMISSION_DENIED', errorClass: 'denied' });
    expect(replayed.type === 'answered' && replayed.content).toContain(REPLAYED_FAILURE_TEXT);
    expect(ledger.charges).toHaveLength(1);
  });
});

describe('at most once', () => {
  it.each([
    ['a transient failure', unavailable],
    ['a timeout', hang],
  ])('after %s the outcome is unknown: the next identical call is refused, not run', async (_what, run) => {
    const { tool, ledger } = chargeTool({ timeoutMs: 20, idempotency: { mode: 'at-most-once' }, run });
    const runtime = createToolRuntime({ tools: [tool], retry: { writeRetries: 3 } });
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({
      code: 'TOOL_UNAVAILABLE',
      result: { attempts: 1 },
    });
    const refused = await runtime.executeToolCall(call, { sessionId: 's' });
    expect(refused).toMatchObject({ isError: true, code: 'OUTCOME_UNKNOWN', errorClass: 'invalid-input' });
    expect(refused.type === 'answered' && refused.content).toBe(
      "OUTCOME_UNKNOWN: An identical earlier call to tool 'charge' was interrupted before its outcome was recorded: it may or may not have taken effect, so this call was not run. Do not retry it; tell the user the outcome has to be checked.",
    );
    expect(ledger.charges).toHaveLength(1);
  });

  it('a call aborted before the tool started is free again (nothing was claimed)', async () => {
    const { tool, ledger } = chargeTool({ idempotency: { mode: 'at-most-once' } });
    const runtime = createToolRuntime({ tools: [tool] });
    await expect(
      runtime.executeToolCall(call, { sessionId: 's', signal: AbortSignal.abort(new Error('gone')) }),
    ).rejects.toThrow('gone');
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(1);
  });
});
