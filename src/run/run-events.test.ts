import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractMismatchScenario } from '../../test/scenarios/repeat-scenarios.js';
import { createToolRuntime } from '../chain/runtime.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { RunEvent } from '../core/run-event.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';
import { streamToolLoop } from './stream-tool-loop.js';

const USER: readonly Message[] = [{ role: 'user', content: 'Look up the secret order sk-live-abcdef.' }];
const SECRET_ARGUMENT = 'hunter2-argument';
const SECRET_RESULT = 'hunter2-result';
const SECRET_TEXT = 'hunter2-answer';

function fixture() {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks an order up.',
    effect: 'read',
    execute: () => ({ note: SECRET_RESULT }),
  });
  const model = new ScriptedModel({
    script: [
      assistantWithCalls([{ name: 'lookup', arguments: { q: SECRET_ARGUMENT }, id: 'c1' }]),
      { role: 'assistant', content: SECRET_TEXT },
    ],
  });
  return { model, tools: [lookup], messages: USER };
}

const ROUND_WITH_CALL = [
  'step-start',
  'model-call-start',
  'model-call-end',
  'tool-call-start',
  'tool-call-end',
  'step-end',
];
const ROUND_WITH_ANSWER = ['step-start', 'model-call-start', 'model-call-end', 'step-end'];
const EXPECTED = ['run-start', ...ROUND_WITH_CALL, ...ROUND_WITH_ANSWER, 'run-end'];

describe('one event sink', () => {
  it('onEvent gets the run events and each tool event once', async () => {
    const recorder = recordEvents();
    const outcome = await runToolLoop({ ...fixture(), onEvent: recorder.listener });
    expect(outcome.type).toBe('completed');
    expect(recorder.events.map((event) => event.type)).toEqual(EXPECTED);
    const [start] = recorder.ofType('run-start');
    expect(start).toEqual({
      type: 'run-start',
      runId: outcome.state.runId,
      resumed: false,
      maxRoundTrips: 50,
    });
    expect(recorder.ofType('run-end')).toEqual([
      {
        type: 'run-end',
        runId: outcome.state.runId,
        outcome: 'completed',
        roundTrips: 2,
        toolCalls: 1,
        usage: outcome.usage,
      },
    ]);
    expect(recorder.ofType('step-end')[0]?.calls).toEqual([
      { toolCallId: 'c1', toolName: 'lookup', type: 'success' },
    ]);
  });

  it('the stream yields the same events, in the same order', async () => {
    const seen: RunEvent[] = [];
    const stream = streamToolLoop(fixture());
    let outcome: LoopOutcome | undefined;
    for (;;) {
      const next = await stream.next();
      if (next.done === true) {
        outcome = next.value;
        break;
      }
      seen.push(next.value);
    }
    expect(outcome?.type).toBe('completed');
    expect(seen.map((event) => event.type)).toEqual(EXPECTED);
  });

  it('events carry no arguments, results, answers or raw errors unless includeContent is set', async () => {
    const quiet = recordEvents();
    await runToolLoop({ ...fixture(), onEvent: quiet.listener });
    const text = JSON.stringify(quiet.events);
    for (const secret of [SECRET_RESULT, SECRET_TEXT, 'sk-live-abcdef']) expect(text).not.toContain(secret);

    const loud = recordEvents();
    await runToolLoop({ ...fixture(), onEvent: loud.listener, includeContent: true });
    const [end] = loud.ofType('run-end');
    expect(end?.result?.type).toBe('completed');
    expect(JSON.stringify(loud.ofType('step-end'))).toContain(SECRET_RESULT);
    expect(JSON.stringify(loud.ofType('model-call-end'))).toContain(SECRET_TEXT);
  });

  it('a listener that throws changes nothing', async () => {
    const outcome = await runToolLoop({
      ...fixture(),
      onEvent: () => {
        throw new Error('log sink down');
      },
    });
    expect(outcome.type).toBe('completed');
  });

  it('the guard warning belongs to its round: it comes before that round’s step-end', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const recorder = recordEvents();
    await runToolLoop({ model, tools, messages, onEvent: recorder.listener });
    const types = recorder.events.map((event) => event.type);
    const warn = types.indexOf('guard-warn');
    expect(warn).toBeGreaterThan(0);
    expect(types.indexOf('step-end', warn)).toBeGreaterThan(warn);
    expect(types.slice(0, warn).filter((type) => type === 'step-end')).toHaveLength(1);
  });

  it('streamToolLoop refuses an onEvent listener: the stream is the sink', async () => {
    const stream = streamToolLoop({ ...fixture(), onEvent: () => {} } as never);
    await expect(stream.next()).rejects.toBeInstanceOf(InvalidOptionsError);
  });
});

describe('stream cancellation', () => {
  // "Nothing happens afterwards" is checked after time passes on a fake clock: the run's own timers (retry
  // delays, a time budget) would fire in it, and the test waits on no real timer.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function writeLoop() {
    let runs = 0;
    const send = defineTool({
      name: 'send',
      description: 'Sends a message.',
      effect: 'write',
      execute: () => {
        runs++;
        return { status: 'sent', n: runs };
      },
    });
    const model = new ScriptedModel({
      script: (_request, index) => assistantWithCalls([{ name: 'send', arguments: { n: index } }]),
    });
    return { model, tools: [send], runs: () => runs };
  }

  // `records`: the write's idempotency record and its session's latest write, kept once the call started
  // (a call cut off by the break while it ran has an unknown outcome: at most once, it is not run again).
  it.each([
    ['step-start', 0, 0, 0],
    ['tool-call-start', 1, 1, 2],
    ['step-end', 1, 1, 2],
  ])(
    'breaking out at the first %s starts no model call and no tool run afterwards',
    async (type, modelCalls, toolRuns, records) => {
      const { model, tools, runs } = writeLoop();
      const store = new MemoryStore();
      const stream = streamToolLoop({
        model,
        runtime: createToolRuntime({ tools, store }),
        messages: USER,
        maxRoundTrips: 10,
        sessionId: 's',
        guard: {},
      });
      for await (const event of stream) if (event.type === type) break;
      const calls = model.callCount;
      expect(calls).toBe(modelCalls);
      expect(runs()).toBe(toolRuns);
      await vi.advanceTimersByTimeAsync(50);
      expect(model.callCount).toBe(calls);
      expect(runs()).toBe(toolRuns);
      // The run wound down before the break returned: the guard state is saved.
      expect(store.size).toBe(1 + records);
    },
  );

  it('return() aborts the run as well, and resolves once it has wound down', async () => {
    const { model, tools, runs } = writeLoop();
    const stream = streamToolLoop({ model, tools, messages: USER, maxRoundTrips: 10 });
    await stream.next();
    await stream.return(undefined as never);
    await vi.advanceTimersByTimeAsync(50);
    expect(model.callCount).toBeLessThanOrEqual(1);
    expect(runs()).toBe(0);
  });

  it('a slow consumer holds the run back: it never runs ahead of what was read', async () => {
    const { model, tools } = writeLoop();
    const stream = streamToolLoop({ model, tools, messages: USER, maxRoundTrips: 3, guard: false });
    const first = await stream.next();
    expect(first.value).toMatchObject({ type: 'run-start' });
    await vi.advanceTimersByTimeAsync(20);
    expect(model.callCount).toBe(0);
    for await (const _event of stream) {
      // drain
    }
    expect(model.callCount).toBe(3);
  });
});
