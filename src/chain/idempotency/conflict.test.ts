import { describe, expect, it } from 'vitest';
import { IdempotencyError } from '../../core/errors/idempotency-error.js';
import { recordEvents } from '../../testing/record-events.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';

const byOrder = { key: (args: { order: string }) => `order:${args.order}` };

describe('the same key with other arguments', () => {
  it('is not run: the model reads IDEMPOTENCY_CONFLICT, and the developer an IdempotencyError', async () => {
    const { tool, ledger } = chargeTool({ idempotency: byOrder });
    const runtime = createToolRuntime({ tools: [tool] });
    await runtime.executeToolCall(
      { id: 'c1', name: 'charge', arguments: { order: 'A-1', cents: 500 } },
      { sessionId: 's' },
    );
    const recorder = recordEvents();
    const conflict = await runtime.executeToolCall(
      { id: 'c2', name: 'charge', arguments: { order: 'A-1', cents: 900 } },
      { sessionId: 's', onEvent: recorder.listener },
    );
    expect(ledger.charges).toEqual([{ order: 'A-1', cents: 500 }]);
    expect(conflict).toMatchObject({
      isError: true,
      code: 'IDEMPOTENCY_CONFLICT',
      errorClass: 'invalid-input',
    });
    expect(conflict.type === 'answered' && conflict.content).toBe(
      "IDEMPOTENCY_CONFLICT: Tool 'charge' already did this action with other arguments, so this call was not run. Do not retry it with changed arguments: tell the user what was already done, or ask how to proceed.",
    );
    const error =
      conflict.type === 'answered' ? conflict.result.type === 'error' && conflict.result.error : undefined;
    expect(IdempotencyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'conflict', toolCallId: 'c2', claimedBy: 'c1', blame: 'model' });
    expect(recorder.ofType('tool-call-end').filter((e) => e.outcome !== 'success')[0]).toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      errorType: 'IdempotencyError',
    });
  });

  it('is a conflict while the first call is still running, too (it neither waits nor runs)', async () => {
    // Resolves, once the first call runs, with what finishes it.
    let started: (finish: () => void) => void = () => {};
    const running = new Promise<() => void>((resolve) => (started = resolve));
    const { tool, ledger } = chargeTool({
      idempotency: byOrder,
      run: () => new Promise<string>((resolve) => started(() => resolve('done'))),
    });
    const runtime = createToolRuntime({ tools: [tool] });
    const first = runtime.executeToolCall(
      { name: 'charge', arguments: { order: 'A-1', cents: 1 } },
      { sessionId: 's' },
    );
    const finish = await running;
    const second = await runtime.executeToolCall(
      { name: 'charge', arguments: { order: 'A-1', cents: 2 } },
      { sessionId: 's' },
    );
    expect(second).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    finish();
    expect(await first).toMatchObject({ isError: false, content: '"done"' });
    expect(ledger.charges).toHaveLength(1);
  });
});
