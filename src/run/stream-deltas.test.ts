import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { ModelStreamError } from '../core/errors/model-stream-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { Model } from '../core/model.js';
import type { RunEvent } from '../core/run-event.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { historyProblems } from '../testing/history-problems.js';
import { recordEvents } from '../testing/record-events.js';
import { ScriptedModel, type ScriptStep } from '../testing/scripted-model.js';
import { streamOf } from '../testing/stream-of.js';
import { defineTool } from '../tools/define-tool.js';
import type { ModelCallWrapper } from './loop-options.js';
import { runToolLoop } from './run-tool-loop.js';
import { streamToolLoop } from './stream-tool-loop.js';

const USER: readonly Message[] = [{ role: 'user', content: 'Book seat 12 and tell me.' }];
const CALL = assistantWithCalls([{ name: 'book', arguments: { seat: 12, note: 'window please' }, id: 'c1' }]);
const ANSWER = { role: 'assistant', content: 'Seat 12 is booked for you.' } as const;
const book = defineTool({ name: 'book', description: 'Books a seat.', effect: 'read', execute: () => 'ok' });

async function drain(stream: AsyncGenerator<RunEvent, LoopOutcome, void>) {
  const events: RunEvent[] = [];
  for (;;) {
    const next = await stream.next();
    if (next.done === true) return { events, outcome: next.value };
    events.push(next.value);
  }
}

const deltasOf = (events: readonly RunEvent[]) =>
  events.filter((e) => e.type === 'model-text-delta' || e.type === 'model-tool-input-delta');

describe('streaming in the guarded loop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('streamToolLoop yields the deltas in order, and ends as the same script run without streaming', async () => {
    const script: ScriptStep[] = [CALL, ANSWER];
    const plain = await runToolLoop({ model: new ScriptedModel({ script }), messages: USER, tools: [book] });
    const model = new ScriptedModel({ script, chunkSize: 3 });
    const { events, outcome } = await drain(
      streamToolLoop({ model, messages: USER, tools: [book], streamDeltas: true }),
    );
    expect(outcome.type).toBe(plain.type);
    expect(outcome.messages).toEqual(plain.messages);
    expect(outcome.type === 'completed' && outcome.text).toBe(ANSWER.content);
    expect(outcome.usage).toEqual(plain.usage);
    const args = CALL.toolCalls?.[0]?.arguments ?? '';
    const toolDeltas = events.filter((e) => e.type === 'model-tool-input-delta');
    expect(toolDeltas.map((e) => e.delta).join('')).toBe(args);
    expect(
      toolDeltas.every(
        (e) => e.round === 1 && e.index === 0 && e.toolCallId === 'c1' && e.toolName === 'book',
      ),
    ).toBe(true);
    expect(toolDeltas.length).toBe(Math.ceil(args.length / 3));
    const textDeltas = events.filter((e) => e.type === 'model-text-delta');
    expect(textDeltas.map((e) => e.delta).join('')).toBe(ANSWER.content);
    expect(textDeltas.every((e) => e.round === 2)).toBe(true);
    // Every delta sits between its round's model-call-start and model-call-end.
    const types = events.map((e) => e.type);
    const round2 = types.indexOf('model-call-start', types.indexOf('model-call-end') + 1);
    const firstText = types.indexOf('model-text-delta');
    expect(types.indexOf('model-tool-input-delta')).toBeGreaterThan(types.indexOf('model-call-start'));
    expect(types.lastIndexOf('model-tool-input-delta')).toBeLessThan(types.indexOf('model-call-end'));
    expect(firstText).toBeGreaterThan(round2);
    expect(types.lastIndexOf('model-text-delta')).toBeLessThan(types.lastIndexOf('model-call-end'));
  });

  it('reports no delta without streamDeltas (includeContent alone is not enough), and then generate answers', async () => {
    const model = new ScriptedModel({ script: [CALL, ANSWER] });
    const { events, outcome } = await drain(
      streamToolLoop({ model, messages: USER, tools: [book], includeContent: true }),
    );
    expect(outcome.type).toBe('completed');
    expect(deltasOf(events)).toEqual([]);
    expect(model.partsRead).toBe(0);
  });

  it('runToolLoop reports the deltas to onEvent with streamDeltas; a stream-only model is collected without it', async () => {
    const recorder = recordEvents();
    const model = new ScriptedModel({ script: [ANSWER], chunkSize: 5 });
    const outcome = await runToolLoop({
      model,
      messages: USER,
      tools: [book],
      streamDeltas: true,
      onEvent: recorder.listener,
    });
    expect(outcome.type === 'completed' && outcome.text).toBe(ANSWER.content);
    expect(
      recorder
        .ofType('model-text-delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe(ANSWER.content);

    const scripted = new ScriptedModel({ script: [CALL, ANSWER] });
    const streamOnly: Model = { stream: (request) => scripted.stream(request) };
    const quiet = recordEvents();
    const collected = await runToolLoop({
      model: streamOnly,
      messages: USER,
      tools: [book],
      onEvent: quiet.listener,
    });
    expect(collected.type).toBe('completed');
    expect(collected.messages).toHaveLength(USER.length + 3);
    expect(deltasOf(quiet.events)).toEqual([]);
    await expect(runToolLoop({ model: {} as Model, messages: USER, tools: [book] })).rejects.toThrow(
      InvalidOptionsError,
    );
  });

  it.each([
    ['throws', 'threw', { after: 'throw', error: new Error('socket hang up') }],
    ['ends without finish', 'no-finish', {}],
  ] as const)(
    'a stream that %s mid-call stops the run as MODEL_ERROR, the partial kept, the history well-formed',
    async (_, reason, end) => {
      const parts = streamOf(CALL, { chunkSize: 4 });
      const cut = parts.findIndex((p) => p.type === 'tool-input-delta') + 2;
      const model = new ScriptedModel({
        script: [{ parts: [{ type: 'text-delta', delta: 'Booking' }, ...parts.slice(0, cut)], ...end }],
      });
      const { events, outcome } = await drain(
        streamToolLoop({ model, messages: USER, tools: [book], streamDeltas: true }),
      );
      expect(outcome.type).toBe('stopped');
      if (outcome.type !== 'stopped') return;
      expect(outcome.reason).toBe('MODEL_ERROR');
      expect(outcome.messages).toEqual(USER);
      expect(historyProblems(outcome.messages)).toEqual([]);
      const error = outcome.evidence.kind === 'error' ? outcome.evidence.error : undefined;
      expect(ModelStreamError.isInstance(error)).toBe(true);
      const broken = error as ModelStreamError;
      expect(broken.reason).toBe(reason);
      expect(broken.partial.text).toBe('Booking');
      expect(broken.partial.toolCalls).toEqual([
        { id: 'c1', name: 'book', arguments: (CALL.toolCalls?.[0]?.arguments ?? '').slice(0, 8) },
      ]);
      expect(deltasOf(events)).toHaveLength(3);
      const end_ = events.find((e) => e.type === 'model-call-end');
      expect(end_?.type === 'model-call-end' && end_.errorType).toBe('ModelStreamError');
      // The same stop as a generate that throws.
      const thrown = await runToolLoop({
        model: { generate: () => Promise.reject(new Error('socket hang up')) },
        messages: USER,
        tools: [book],
      });
      expect(thrown.type === 'stopped' && thrown.reason).toBe(outcome.reason);
    },
  );

  it.each([
    ['the caller’s signal', 'ABORTED'],
    ['the time budget', 'BUDGET_EXHAUSTED'],
  ] as const)('a stream that hangs mid-call is ended by %s, and told to stop', async (by, reason) => {
    // The abort and the time budget come after time passes on a fake clock.
    vi.useFakeTimers();
    const parts = streamOf(CALL, { chunkSize: 4 }).slice(0, 3);
    const model = new ScriptedModel({ script: [{ parts, after: 'hang' }] });
    const controller = new AbortController();
    const options = by === 'the time budget' ? { timeBudgetMs: 30 } : { signal: controller.signal };
    const stream = streamToolLoop({ model, messages: USER, tools: [book], streamDeltas: true, ...options });
    const events: RunEvent[] = [];
    const read = async (): Promise<LoopOutcome> => {
      for (;;) {
        const next = await stream.next();
        if (next.done === true) return next.value;
        events.push(next.value);
        if (next.value.type === 'model-tool-input-delta' && by !== 'the time budget')
          setTimeout(() => controller.abort(), 5);
      }
    };
    const reading = read();
    await vi.advanceTimersByTimeAsync(30);
    const outcome = await reading;
    expect(outcome.type === 'stopped' && outcome.reason).toBe(reason);
    expect(historyProblems(outcome.messages)).toEqual([]);
    expect(model.streamsClosed).toBe(1);
    expect(deltasOf(events).length).toBeGreaterThan(0);
  });

  it('a consumer that breaks out of the for-await stops the model’s stream', async () => {
    const model = new ScriptedModel({ script: [ANSWER], chunkSize: 1 });
    let seen = 0;
    for await (const event of streamToolLoop({ model, messages: USER, tools: [book], streamDeltas: true })) {
      if (event.type === 'model-text-delta' && ++seen === 3) break;
    }
    expect(model.streamsClosed).toBe(1);
    // Read no further than the consumer did.
    expect(model.partsRead).toBe(3);
  });

  it('a slow consumer loses no delta, and the model’s stream is read no faster than the consumer reads', async () => {
    const model = new ScriptedModel({ script: [ANSWER], chunkSize: 1 });
    const received: string[] = [];
    const readWhenReceived: number[] = [];
    for await (const event of streamToolLoop({ model, messages: USER, tools: [book], streamDeltas: true })) {
      if (event.type !== 'model-text-delta') continue;
      readWhenReceived.push(model.partsRead);
      received.push(event.delta);
      // Slow: the next read comes a macrotask later, time enough for a loop that read ahead to do so.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(received.join('')).toBe(ANSWER.content);
    expect(readWhenReceived).toEqual(received.map((_, index) => index + 1));
  });
});

describe('hostile streams in the loop', () => {
  it('a delta for an id never started, a call without an id and unknown parts still give a well-formed history', async () => {
    const model = new ScriptedModel({
      script: [
        {
          parts: [
            { type: 'reasoning-delta', delta: 'hmm' },
            { type: 'tool-input-delta', toolCallId: 'ghost', delta: '{}' },
            { type: 'tool-call', toolCallId: 5, toolName: 'book', arguments: '{"seat":1}' },
            { type: 'tool-input-start', toolCallId: 'c2', toolName: 'book' },
            { type: 'tool-input-delta', toolCallId: 'c2', delta: '{"seat":' },
            { type: 'finish' },
            { type: 'text-delta', delta: 'after the finish' },
          ],
        },
        ANSWER,
      ],
    });
    const { outcome } = await drain(
      streamToolLoop({ model, messages: USER, tools: [book], streamDeltas: true }),
    );
    expect(outcome.type).toBe('completed');
    expect(historyProblems(outcome.messages)).toEqual([]);
    const answers = outcome.messages.filter((m) => m.role === 'tool');
    expect(answers.map((m) => m.role === 'tool' && (m.errorCode ?? 'ok'))).toEqual([
      'UNKNOWN_TOOL',
      'ok',
      'INVALID_JSON',
    ]);
    expect(outcome.messages[1]?.role === 'assistant' && outcome.messages[1].content).toBe('');
  });
});

describe('streaming through wrapModelCall', () => {
  it('the wrapper’s next streams (deltas reported) and gives the collected answer; a broken stream is the model’s failure', async () => {
    const seen: unknown[] = [];
    const recorder = recordEvents();
    const model = new ScriptedModel({
      script: [ANSWER, { parts: [{ type: 'text-delta', delta: 'Hal' }], after: 'throw' }],
    });
    const wrapModelCall: ModelCallWrapper = async (request, next) => {
      const response = await next(request);
      seen.push(response.message);
      return response;
    };
    const first = await runToolLoop({
      model,
      messages: USER,
      tools: [book],
      streamDeltas: true,
      wrapModelCall,
      onEvent: recorder.listener,
    });
    expect(first.type === 'completed' && first.text).toBe(ANSWER.content);
    expect(seen).toEqual([ANSWER]);
    expect(
      recorder
        .ofType('model-text-delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe(ANSWER.content);
    const second = await runToolLoop({
      model,
      messages: USER,
      tools: [book],
      streamDeltas: true,
      wrapModelCall,
    });
    expect(second.type === 'stopped' && second.reason).toBe('MODEL_ERROR');
  });
});
