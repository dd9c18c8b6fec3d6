import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/message.js';
import type { ToolCallResult } from '../../core/tool-execution-result.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { recordEvents } from '../../testing/record-events.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';
import { originalContent, REPLAYED_FAILURE_TEXT, REPLAYED_SUCCESS_TEXT } from './idempotency-answers.js';

const history: Message[] = [{ role: 'user', content: 'charge it' }];
const twice = assistantWithCalls([
  { name: 'charge', arguments: { order: 'A-1' }, id: 'c1' },
  { name: 'charge', arguments: { order: 'A-1' }, id: 'c2' },
]);

describe('a duplicate write', () => {
  it('gets the recorded result and value, marked as a replay, and the model is told it was already done', async () => {
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool] });
    const done = await runtime.executeToolCalls({ messages: history, response: twice, sessionId: 's' });
    expect(ledger.charges).toHaveLength(1);
    const [ran, replayed] = done.results;
    expect(ran).toMatchObject({ type: 'success', attempts: 1, content: '{"charged":"A-1","receipt":"R-1"}' });
    expect(ran?.replayOf).toBeUndefined();
    expect(replayed).toMatchObject({
      type: 'success',
      toolCallId: 'c2',
      replayOf: 'c1',
      attempts: 0,
      value: { charged: 'A-1', receipt: 'R-1' },
      content: `${REPLAYED_SUCCESS_TEXT}{"charged":"A-1","receipt":"R-1"}`,
    });
    expect(REPLAYED_SUCCESS_TEXT).toMatch(/^Already done: .* was not run again\. /);
    expect(done.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c2', isError: false });
  });

  it('marks its outcome events with replayOf; they carry neither the key nor the digest', async () => {
    const { tool } = chargeTool({ idempotency: { key: (args) => `secret-key-${args.order}` } });
    const runtime = createToolRuntime({ tools: [tool] });
    const recorder = recordEvents();
    await runtime.executeToolCalls({
      messages: history,
      response: twice,
      sessionId: 's',
      onEvent: recorder.listener,
    });
    const ends = recorder.ofType('tool-call-end');
    expect(ends.map((event) => [event.toolCallId, event.outcome, event.replayOf])).toEqual([
      ['c1', 'success', undefined],
      ['c2', 'success', 'c1'],
    ]);
    const text = JSON.stringify(recorder.events);
    for (const secret of ['secret-key-A-1', sha256('secret-key-A-1'), sha256('{"order":"A-1"}')]) {
      expect(text).not.toContain(secret);
    }
  });

  it('of a value that is not plain JSON replays the text the model saw, without the value', async () => {
    const { tool } = chargeTool({ run: () => ({ at: new Date(0), ids: new Set([1]) }) });
    const runtime = createToolRuntime({ tools: [tool] });
    const done = await runtime.executeToolCalls({ messages: history, response: twice, sessionId: 's' });
    const [ran, replayed] = done.results;
    expect(replayed?.type === 'success' && replayed.value).toBeUndefined();
    expect(replayed?.content).toBe(`${REPLAYED_SUCCESS_TEXT}${ran?.content}`);
  });

  it('of a failure after the tool returned (its result withheld) replays it as it was: code, class, and what the model was told', async () => {
    const { tool, ledger } = withheld();
    const runtime = createToolRuntime({ tools: [tool] });
    const done = await runtime.executeToolCalls({ messages: history, response: twice, sessionId: 's' });
    expect(ledger.charges).toHaveLength(1);
    const [ran, replayed] = done.results.map((r) => r.type === 'error' && [r.code, r.errorClass, r.replayOf]);
    expect(ran).toEqual(['CONTRACT_VIOLATION', 'invalid-input', undefined]);
    expect(replayed).toEqual(['CONTRACT_VIOLATION', 'invalid-input', 'c1']);
    const told = done.results[0]?.content.slice('CONTRACT_VIOLATION: '.length);
    expect(done.results[1]?.content).toBe(`CONTRACT_VIOLATION: ${REPLAYED_FAILURE_TEXT}${told}`);
  });

  it("cuts a recorded text longer than the tool's result limit now", async () => {
    const { tool } = chargeTool({ run: () => 'x'.repeat(5_000) });
    const runtime = createToolRuntime({ tools: [tool] });
    await runtime.executeToolCall({ name: 'charge', arguments: { order: 'A' } }, { sessionId: 's' });
    const { tool: smaller } = chargeTool({ run: () => 'y' });
    const later = createToolRuntime({
      tools: [{ ...smaller, maxResultChars: 200 }],
      store: runtime.policy.store,
    });
    const replayed = await later.executeToolCall(
      { name: 'charge', arguments: { order: 'A' } },
      { sessionId: 's' },
    );
    expect(replayed.type === 'answered' && replayed.content.length).toBeLessThan(400);
  });
});

describe('originalContent', () => {
  it('is what the tool gave for the call that ran, and for its replays (the loop guard compares by it)', async () => {
    for (const { tool } of [chargeTool(), withheld()]) {
      const runtime = createToolRuntime({ tools: [tool] });
      const done = await runtime.executeToolCalls({ messages: history, response: twice, sessionId: 's' });
      const [ran, replayed] = done.results;
      expect(replayed?.content).not.toBe(ran?.content);
      expect(originalContent(replayed as ToolCallResult)).toBe(ran?.content);
      expect(originalContent(ran as ToolCallResult)).toBe(ran?.content);
    }
  });
});

/** A charge whose result breaks its output contract: withheld from the model, but the charge took effect. */
function withheld() {
  return chargeTool({
    run: () => ({ receipt: 7 }),
    output: { type: 'object', properties: { receipt: { type: 'string' } } },
  });
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
