import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { Model } from '../core/model.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { resumeToolLoop } from './resume-tool-loop.js';
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

/** The three forms of a loop that starts, each with the same options. */
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
  it.each([
    ['through a runtime', () => ({ runtime: createToolRuntime({ tools: [search] }) })],
    ['through the one-off form with its store', () => ({ tools: [search], store: new MemoryStore() })],
  ])(
    '%s, three requests that repeat a search: completed, loop-detected, loop-detected',
    async (_form, made) => {
      const given = made();
      const kinds: string[] = [];
      for (let request = 0; request < 3; request++) {
        const options = { ...given, model: repeatingRequest(), messages: USER, sessionId: 's' };
        kinds.push(kind(await runToolLoop(options as never)));
      }
      expect(kinds).toEqual(['completed', 'loop-detected', 'loop-detected']);
    },
  );

  it.each(forms)(
    '%s: the one-off form with a sessionId or a turnId and no store is refused',
    async (_name, start) => {
      for (const ids of [{ sessionId: 's' }, { turnId: 't' }]) {
        const { model, calls } = countingModel();
        const refused = start({ tools: [search], model, messages: USER, ...ids });
        await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: Object.keys(ids)[0] });
        await expect(refused).rejects.toThrow(/keeps no state between calls/);
        expect(calls()).toBe(0);
      }
    },
  );

  it('resuming a saved state of a session through the one-off form with no store is refused', async () => {
    const store = new MemoryStore();
    const approve = defineTool({ ...search, name: 'refund', effect: 'write', needsApproval: true } as never);
    const paused = await runToolLoop({
      tools: [approve],
      store,
      sessionId: 's',
      model: new ScriptedModel({
        script: [assistantWithCalls([{ name: 'refund', arguments: { q: 'x' }, id: 'r1' }])],
      }),
      messages: USER,
    });
    expect(paused.type).toBe('interrupted');
    const { model, calls } = countingModel();
    const refused = resumeToolLoop(paused.state, { tools: [approve], model, decisions: { r1: 'run' } });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'sessionId' });
    expect(calls()).toBe(0);
    const done = await resumeToolLoop(paused.state, {
      tools: [approve],
      store,
      model,
      decisions: { r1: 'run' },
    });
    expect(done.type).toBe('completed');
  });
});

describe('a runtime or policy option next to a runtime', () => {
  it.each([
    ['timeoutMs', { timeoutMs: 50 }],
    ['limits', { limits: { perTool: 1 } }],
    ['store', { store: new MemoryStore() }],
    ['authorize', { authorize: () => false }],
    ['needsApproval', { needsApproval: true }],
    ['onLimitExceeded', { onLimitExceeded: 'feedback' }],
  ])('%s is refused by every form, naming it and where it belongs', async (option, extra) => {
    const runtime = createToolRuntime({ tools: [search] });
    const { model, calls } = countingModel();
    for (const [, start] of forms) {
      const refused = start({ runtime, model, messages: USER, ...extra });
      await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
      await expect(refused).rejects.toThrow(/belongs in createToolRuntime/);
    }
    const resumed = resumeToolLoop({ runId: 'r', runtime, model, ...extra } as never);
    await expect(resumed).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
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

  it('resumeToolLoop refuses it too, in both forms', async () => {
    const runtime = createToolRuntime({ tools: [search] });
    const { model } = countingModel();
    await expect(resumeToolLoop({ runId: 'r', runtime, model, maxSteps: 3 } as never)).rejects.toMatchObject({
      option: 'maxSteps',
    });
    const done = await runToolLoop({ runtime, model: repeatingRequest(), messages: USER });
    await expect(
      resumeToolLoop(done.state, { runtime, model, messages: USER } as never),
    ).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      option: 'messages',
    });
  });
});

describe('the types', () => {
  it('refuse a policy option next to a runtime, and an unknown option, in an object literal', async () => {
    const runtime = createToolRuntime({ tools: [search] });
    const { model } = countingModel();
    const refusals = [
      // @ts-expect-error: a runtime takes no policy option next to it
      () => runToolLoop({ runtime, model, messages: USER, timeoutMs: 50 }),
      // @ts-expect-error: not an option of the loop
      () => runToolLoop({ tools: [search], model, messages: USER, maxSteps: 5 }),
      // @ts-expect-error: a runtime takes no policy option next to it
      () => streamToolLoop({ runtime, model, messages: USER, store: new MemoryStore() }).next(),
      // @ts-expect-error: a runtime takes no policy option next to it
      () => resumeToolLoop({ runId: 'r', runtime, model, limits: { perTool: 1 } }),
    ];
    for (const refused of refusals)
      await expect(refused()).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
