import { describe, expect, it } from 'vitest';
import type { Message } from '../core/message.js';
import type { Model, ModelResponse } from '../core/model.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';

const USER: readonly Message[] = [{ role: 'user', content: 'Go.' }];
const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  effect: 'read',
  execute: (args: unknown) => args,
});
describe('runToolLoop and the model port', () => {
  it.each([
    ['without a signal', {}],
    ['with a signal to race', { signal: new AbortController().signal }],
    ['with a time budget', { timeBudgetMs: 60_000 }],
  ])('turns a model that throws synchronously into MODEL_ERROR (%s)', async (_name, extra) => {
    const failure = new Error('bad request');
    const model: Model = {
      generate: () => {
        throw failure;
      },
    };
    const outcome = await runToolLoop({ model, messages: USER, tools: [echo], ...extra });
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'MODEL_ERROR',
      evidence: { kind: 'error', error: failure },
      roundTrips: 1,
    });
  });

  it('accepts a model that answers with a plain value instead of a promise', async () => {
    const answer: ModelResponse = { message: { role: 'assistant', content: 'Hi.' } };
    const model = { generate: () => answer } as unknown as Model;
    const outcome = await runToolLoop({ model, messages: USER, tools: [echo], timeBudgetMs: 60_000 });
    expect(outcome).toMatchObject({ type: 'completed', text: 'Hi.' });
  });
});

describe('signals', () => {
  it("hand each tool a working signal, and the caller's abort reaches it", async () => {
    const seen: AbortSignal[] = [];
    const caller = new AbortController();
    const watch = defineTool({
      name: 'watch',
      description: 'Looks at its signal.',
      effect: 'read',
      execute: (_args: unknown, context) => {
        seen.push(context.signal);
        if (seen.length === 2) caller.abort(new Error('closed'));
        return { aborted: context.signal.aborted };
      },
    });
    const model: Model = {
      generate: async () => ({
        message: {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: `c${seen.length}`, name: 'watch', arguments: `{"n":${seen.length}}` }],
        },
      }),
    };
    await runToolLoop({ model, messages: USER, tools: [watch], maxRoundTrips: 1 });
    expect(seen[0]).toBeInstanceOf(AbortSignal);
    expect(seen[0]?.aborted).toBe(false);
    const outcome = await runToolLoop({ model, messages: USER, tools: [watch], signal: caller.signal });
    expect(seen[1]?.aborted).toBe(true);
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'ABORTED' });
  });
});

describe('options, checked before anything runs', () => {
  it.each([
    ['timeBudgetMs', { timeBudgetMs: 3_000_000_000 }],
    ['callbackTimeoutMs', { callbackTimeoutMs: 2 ** 31 }],
    ['maxRoundTrips', { maxRoundTrips: 0 }],
    ['costBudget', { cost: () => 1, costBudget: 0 }],
    ['onEvent', { onEvent: 'log' }],
    ['stopWhen', { stopWhen: 'max' }],
    ['tools', { runtime: {} }],
  ])(
    '%s: a bad value is refused with the option named, and the model is never called',
    async (option, extra) => {
      let calls = 0;
      const model: Model = {
        generate: async () => {
          calls++;
          return { message: { role: 'assistant', content: 'Hi.' } };
        },
      };
      await expect(
        runToolLoop({ model, messages: USER, tools: [echo], ...extra } as never),
      ).rejects.toMatchObject({
        code: 'INVALID_OPTIONS',
        option: expect.stringContaining(option),
      });
      expect(calls).toBe(0);
    },
  );
});
