import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import type { Message } from '../core/message.js';
import type { Model, ModelRequest } from '../core/model.js';
import type { RunEvent } from '../core/run-event.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';
import { streamToolLoop } from './stream-tool-loop.js';

// Nothing the loop hands out (to the model, a listener, a callback, the caller) changes afterwards: each
// test keeps the very values it was given, with what they held then, and compares after the run.

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a thing up.',
  effect: 'read',
  execute: async ({ id }: { id: string }) => ({ id, found: true }),
});
const refund = defineTool({
  name: 'refund',
  description: 'Refunds an order.',
  effect: 'write',
  needsApproval: true,
  execute: async () => ({ refunded: true }),
});

/** A model that keeps every request it was given (not a copy), with the length of its history then. */
function recordingModel(answers: readonly Message[]) {
  const received: { request: ModelRequest; length: number; json: string }[] = [];
  const model: Model = {
    generate: async (request) => {
      received.push({ request, length: request.messages.length, json: JSON.stringify(request.messages) });
      const message = answers[received.length - 1];
      if (message?.role !== 'assistant') throw new Error('the script ran out');
      return { message };
    },
  };
  return { model, received };
}

const threeRounds = (): Message[] => [
  assistantWithCalls([{ name: 'lookup', arguments: { id: 'a' }, id: 'c1' }]),
  assistantWithCalls([{ name: 'lookup', arguments: { id: 'b' }, id: 'c2' }]),
  { role: 'assistant', content: 'Done.' },
];

function expectUnchanged(received: readonly { request: ModelRequest; length: number; json: string }[]) {
  for (const { request, length, json } of received) {
    expect(request.messages).toHaveLength(length);
    expect(JSON.stringify(request.messages)).toBe(json);
  }
}

describe('the history each model call received', () => {
  it('keeps its length after the run: round 2 got 3 messages and still holds 3', async () => {
    const { model, received } = recordingModel(threeRounds());
    const outcome = await runToolLoop({
      model,
      tools: [lookup],
      messages: [{ role: 'user', content: 'Go.' }],
    });
    expect(outcome.type).toBe('completed');
    expect(received.map((entry) => entry.length)).toEqual([1, 3, 5]);
    expectUnchanged(received);
    expect(outcome.messages).toHaveLength(6);
    expect(received.every(({ request }) => request.messages !== outcome.messages)).toBe(true);
  });

  it('a model and a wrapModelCall that keep the messages they were given: 3 rounds, each call its own array, unchanged after the run', async () => {
    const { model, received } = recordingModel(threeRounds());
    const wrapped: { messages: readonly Message[]; length: number }[] = [];
    const outcome = await runToolLoop({
      model,
      tools: [lookup],
      messages: [{ role: 'user', content: 'Go.' }],
      wrapModelCall: (request, next) => {
        wrapped.push({ messages: request.messages, length: request.messages.length });
        return next(request);
      },
    });
    expect(outcome.type).toBe('completed');
    expect(received).toHaveLength(3);
    expectUnchanged(received);
    expect(wrapped.map(({ messages }) => messages.length)).toEqual(wrapped.map(({ length }) => length));
    expect(wrapped.map(({ length }) => length)).toEqual([1, 3, 5]);
    // Each call got an array of its own: none is the one a later round grew.
    expect(new Set(received.map(({ request }) => request.messages)).size).toBe(3);
    expect(new Set(wrapped.map(({ messages }) => messages)).size).toBe(3);
  });

  it('is unchanged through the stream and a resume too', async () => {
    const streamed = recordingModel(threeRounds());
    const stream = streamToolLoop({
      model: streamed.model,
      tools: [lookup],
      messages: [{ role: 'user', content: 'Go.' }],
    });
    for await (const _event of stream) {
      // read to the end
    }
    expectUnchanged(streamed.received);
    expect(streamed.received).toHaveLength(3);

    const runtime = createToolRuntime({ tools: [lookup, refund] });
    const paused = await runToolLoop({
      model: recordingModel([assistantWithCalls([{ name: 'refund', arguments: {}, id: 'r1' }])]).model,
      runtime,
      messages: [{ role: 'user', content: 'Refund.' }],
    });
    if (paused.type !== 'interrupted') throw new Error(`expected a pause, got ${paused.type}`);
    const pausedLength = paused.messages.length;
    const resumed = recordingModel(threeRounds());
    const done = await runToolLoop({
      from: paused.state,
      model: resumed.model,
      runtime,
      decisions: { r1: 'run' },
    });
    expect(done.type).toBe('completed');
    expectUnchanged(resumed.received);
    expect(paused.messages).toHaveLength(pausedLength);
    expect(paused.state.messages).toHaveLength(pausedLength);
  });
});

describe("the caller's own values", () => {
  it('the messages passed in, and the outcome of a run, are never changed by the run or a later one', async () => {
    const messages: Message[] = [{ role: 'user', content: 'Go.' }];
    const first = await runToolLoop({
      model: recordingModel(threeRounds()).model,
      tools: [lookup],
      messages,
    });
    expect(messages).toEqual([{ role: 'user', content: 'Go.' }]);
    const kept = JSON.stringify(first.messages);
    const keptSteps = first.steps.length;
    const next = [...first.messages, { role: 'user', content: 'Again.' } as const];
    await runToolLoop({ model: recordingModel(threeRounds()).model, tools: [lookup], messages: next });
    expect(JSON.stringify(first.messages)).toBe(kept);
    expect(first.steps).toHaveLength(keptSteps);
  });
});

describe("a listener's events and a stop's information", () => {
  it('keep what they held when they were handed out', async () => {
    const seen: { event: RunEvent; json: string }[] = [];
    const stops: { messages: readonly Message[]; length: number }[] = [];
    const outcome = await runToolLoop({
      model: recordingModel(threeRounds()).model,
      tools: [lookup],
      messages: [{ role: 'user', content: 'Go.' }],
      maxRoundTrips: 2,
      includeContent: true,
      onEvent: (event) => {
        seen.push({ event, json: JSON.stringify(event) });
      },
      handoff: (stop) => {
        stops.push({ messages: stop.messages, length: stop.messages.length });
        return undefined;
      },
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'MAX_ROUND_TRIPS' });
    expect(seen.length).toBeGreaterThan(5);
    for (const { event, json } of seen) expect(JSON.stringify(event)).toBe(json);
    expect(stops).toHaveLength(1);
    for (const { messages, length } of stops) expect(messages).toHaveLength(length);
  });
});
