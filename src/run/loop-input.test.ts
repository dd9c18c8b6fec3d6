import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { Model } from '../core/model.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';
import { streamToolLoop } from './stream-tool-loop.js';

// The loop's options: each takes effect or is refused before the model is called.

const USER: readonly Message[] = [{ role: 'user', content: 'What is the refund policy?' }];
const search = defineTool({
  name: 'search',
  description: 'Searches the help center.',
  effect: 'read',
  execute: async ({ q }: { q: string }) => ({ hits: [q] }),
});
const same = assistantWithCalls([{ name: 'search', arguments: { q: 'refund policy' } }]);
/** One request that repeats a search, then answers. */
const repeatingRequest = () =>
  new ScriptedModel({ script: [same, same, { role: 'assistant', content: 'Done.' }] });
const kind = (outcome: LoopOutcome) => (outcome.type === 'stopped' ? outcome.reason : outcome.type);

function countingModel(): { model: Model; calls: () => number } {
  let calls = 0;
  return {
    model: {
      generate: async () => {
        calls++;
        return { message: { role: 'assistant', content: 'Hi.' } };
      },
    },
    calls: () => calls,
  };
}

/** The two forms of a loop, each with the same options. */
const forms: [string, (options: object) => Promise<LoopOutcome>][] = [
  ['runToolLoop', (options) => runToolLoop(options as never)],
  [
    'streamToolLoop',
    async (options) => {
      const stream = streamToolLoop(options as never);
      for (;;) {
        const next = await stream.next();
        if (next.done === true) return next.value;
      }
    },
  ],
];

describe('a session across requests', () => {
  it('through a runtime, three requests that repeat a search: completed, LOOP_DETECTED, LOOP_DETECTED', async () => {
    const runtime = createToolRuntime({ tools: [search] });
    const kinds: string[] = [];
    for (let request = 0; request < 3; request++) {
      kinds.push(
        kind(await runToolLoop({ runtime, model: repeatingRequest(), messages: USER, sessionId: 's' })),
      );
    }
    expect(kinds).toEqual(['completed', 'LOOP_DETECTED', 'LOOP_DETECTED']);
  });

  it.each(forms)('%s: tools alone with a sessionId or a turnId is refused', async (_name, start) => {
    for (const ids of [{ sessionId: 's' }, { turnId: 't' }]) {
      const { model, calls } = countingModel();
      const refused = start({ tools: [search], model, messages: USER, ...ids });
      await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: Object.keys(ids)[0] });
      await expect(refused).rejects.toThrow(
        /keeps nothing between runs.*createToolRuntime\(\{ tools, store \}\)/,
      );
      expect(calls()).toBe(0);
    }
  });

  it('going on from a saved state of a session with tools alone is refused; through the runtime it runs', async () => {
    const approve = defineTool({ ...search, name: 'refund', effect: 'write', needsApproval: true } as never);
    const runtime = createToolRuntime({ tools: [approve], store: new MemoryStore() });
    const paused = await runToolLoop({
      runtime,
      sessionId: 's',
      model: new ScriptedModel({
        script: [assistantWithCalls([{ name: 'refund', arguments: { q: 'x' }, id: 'r1' }])],
      }),
      messages: USER,
    });
    expect(paused.type).toBe('interrupted');
    const { model, calls } = countingModel();
    const refused = runToolLoop({ from: paused.state, tools: [approve], model, decisions: { r1: 'run' } });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'sessionId' });
    expect(calls()).toBe(0);
    const done = await runToolLoop({ from: paused.state, runtime, model, decisions: { r1: 'run' } });
    expect(done.type).toBe('completed');
  });

  it('a run by its id with tools alone is refused: only a runtime has the store that keeps it', async () => {
    const { model, calls } = countingModel();
    const refused = runToolLoop({ from: { runId: 'r' }, tools: [search], model });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'from' });
    await expect(refused).rejects.toThrow(/createToolRuntime\(\{ tools, store \}\)/);
    expect(calls()).toBe(0);
  });
});

describe('a policy option given to the loop', () => {
  it.each([
    ['timeoutMs', { timeoutMs: 50 }],
    ['limits', { limits: { perTool: 1 } }],
    ['store', { store: new MemoryStore() }],
    ['decide', { decide: () => ({ type: 'deny', reason: 'no' }) }],
    ['onLimitExceeded', { onLimitExceeded: 'feedback' }],
  ])(
    '%s is refused next to a runtime and next to tools, naming it and createToolRuntime',
    async (option, extra) => {
      const runtime = createToolRuntime({ tools: [search] });
      const { model, calls } = countingModel();
      for (const [, start] of forms) {
        for (const tools of [{ runtime }, { tools: [search] }]) {
          const refused = start({ ...tools, model, messages: USER, ...extra });
          await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
          await expect(refused).rejects.toThrow(
            new RegExp(`createToolRuntime\\(\\{ tools, ${option}, \\.\\.\\. \\}\\)`),
          );
        }
      }
      const resumed = runToolLoop({ from: { runId: 'r' }, runtime, model, ...extra } as never);
      await expect(resumed).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
      expect(calls()).toBe(0);
    },
  );

  it('tools next to a runtime is refused', async () => {
    const runtime = createToolRuntime({ tools: [search] });
    const { model } = countingModel();
    const refused = runToolLoop({ runtime, tools: [search], model, messages: USER } as never);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'tools' });
  });
});

describe('where a run starts', () => {
  it('messages and from together are refused, and decisions without from', async () => {
    const runtime = createToolRuntime({ tools: [search] });
    const done = await runToolLoop({ runtime, model: repeatingRequest(), messages: USER });
    const { model, calls } = countingModel();
    for (const [, start] of forms) {
      await expect(start({ from: done.state, runtime, model, messages: USER })).rejects.toMatchObject({
        code: 'INVALID_OPTIONS',
        option: 'messages',
      });
      await expect(start({ runtime, model, messages: USER, decisions: {} })).rejects.toMatchObject({
        code: 'INVALID_OPTIONS',
        option: 'decisions',
      });
    }
    expect(calls()).toBe(0);
  });
});

describe('an option the loop does not know', () => {
  it('maxSteps (an AI SDK habit) is refused, pointing at maxRoundTrips', async () => {
    const { model, calls } = countingModel();
    for (const [, start] of forms) {
      const refused = start({ tools: [search], model, messages: USER, maxSteps: 5 });
      await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'maxSteps' });
      await expect(refused).rejects.toThrow(/stopWhen: \[maxRoundTrips\(n\)\]/);
    }
    expect(calls()).toBe(0);
  });

  it.each([
    ['timeBudget', /did you mean "timeBudgetMs"/],
    ['sesionId', /did you mean "sessionId"/],
    ['finalAnswers', /did you mean "finalAnswer"/],
    ['temperature', /is not an option of runToolLoop; known: .*maxRoundTrips/],
  ])('%s is refused with the known options, and a suggestion when one is close', async (option, message) => {
    const { model, calls } = countingModel();
    const refused = runToolLoop({ tools: [search], model, messages: USER, [option]: 1 } as never);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
    await expect(refused).rejects.toThrow(message);
    expect(calls()).toBe(0);
  });

  it('a run that goes on from a state or a run id refuses it too', async () => {
    const runtime = createToolRuntime({ tools: [search] });
    const { model } = countingModel();
    await expect(
      runToolLoop({ from: { runId: 'r' }, runtime, model, maxSteps: 3 } as never),
    ).rejects.toMatchObject({ option: 'maxSteps' });
    const done = await runToolLoop({ runtime, model: repeatingRequest(), messages: USER });
    await expect(
      runToolLoop({ from: done.state, runtime, model, maxSteps: 3 } as never),
    ).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      option: 'maxSteps',
    });
  });
});

describe('the types', () => {
  it('refuse a policy option given to the loop, and an unknown option, in an object literal', async () => {
    const runtime = createToolRuntime({ tools: [search] });
    const { model } = countingModel();
    const refusals = [
      // @ts-expect-error: the policy lives on the runtime
      () => runToolLoop({ runtime, model, messages: USER, timeoutMs: 50 }),
      // @ts-expect-error: the policy lives on the runtime, also for tools alone
      () => runToolLoop({ tools: [search], model, messages: USER, timeoutMs: 50 }),
      // @ts-expect-error: not an option of the loop
      () => runToolLoop({ tools: [search], model, messages: USER, maxSteps: 5 }),
      // @ts-expect-error: the policy lives on the runtime
      () => streamToolLoop({ runtime, model, messages: USER, store: new MemoryStore() }).next(),
      // @ts-expect-error: the policy lives on the runtime
      () => runToolLoop({ from: { runId: 'r' }, runtime, model, limits: { perTool: 1 } }),
      // @ts-expect-error: a new run (messages) takes no decisions
      () => runToolLoop({ runtime, model, messages: USER, decisions: {} }),
    ];
    for (const refused of refusals)
      await expect(refused()).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
