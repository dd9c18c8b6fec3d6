import { stepCountIs, streamText, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callsOf,
  scriptedModel,
  streamedModel,
  textOf,
  toolsOffered,
} from './__fixtures__/guard-tools-model.js';
import { guardTools } from './guard-tools.js';

describe('guardTools with streamText and ToolLoopAgent', () => {
  const search = (runs: string[]) => ({
    search: tool({
      description: 'Search.',
      inputSchema: z.object({ q: z.string() }),
      execute: async ({ q }) => {
        runs.push(q);
        return { hits: [] as string[] };
      },
    }),
  });
  const model = () =>
    streamedModel((options, index) =>
      toolsOffered(options)
        ? callsOf({ id: `c${index}`, name: 'search', input: { q: 'same' } })
        : textOf('Nothing found.'),
    );

  it('stops a repeating model with evidence and streams its final text, as with generateText', async () => {
    const runs: string[] = [];
    const guarded = guardTools(search(runs));
    const result = streamText({
      model: model(),
      tools: guarded.tools,
      prompt: 'Find it.',
      stopWhen: [stepCountIs(10), guarded.stopWhen],
      prepareStep: guarded.prepareStep,
    });
    expect(await result.text).toBe('Nothing found.');
    expect(runs).toHaveLength(3);
    expect(await result.steps).toHaveLength(4);
    expect(guarded.stopEvidence()?.detector).toBe('exact-repeat');
  });

  it('works the same in a ToolLoopAgent', async () => {
    const runs: string[] = [];
    const guarded = guardTools(search(runs));
    const agent = new ToolLoopAgent({
      model: scriptedModel((options, index) =>
        toolsOffered(options)
          ? callsOf({ id: `c${index}`, name: 'search', input: { q: 'same' } })
          : textOf('Nothing found.'),
      ),
      tools: guarded.tools,
      stopWhen: [stepCountIs(20), guarded.stopWhen],
      prepareStep: guarded.prepareStep,
    });
    const result = await agent.generate({ prompt: 'Find it.' });
    expect(result.text).toBe('Nothing found.');
    expect(runs).toHaveLength(3);
    expect(guarded.stopEvidence()?.detector).toBe('exact-repeat');
  });

  it('aborts a running tool when the caller aborts (its signal is the one the tool gets)', async () => {
    let aborted = false;
    const controller = new AbortController();
    const tools = {
      wait: tool({
        description: 'Waits until aborted.',
        inputSchema: z.object({}),
        execute: (_, { abortSignal }) =>
          new Promise<string>((_resolve, reject) => {
            abortSignal?.addEventListener('abort', () => {
              aborted = true;
              reject(abortSignal.reason);
            });
            controller.abort(new Error('the user left'));
          }),
      }),
    };
    const guarded = guardTools(tools);
    const result = streamText({
      model: streamedModel((_, index) =>
        index === 0 ? callsOf({ id: 'c1', name: 'wait', input: {} }) : textOf('?'),
      ),
      tools: guarded.tools,
      prompt: 'Wait.',
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(aborted).toBe(true);
    expect(parts).toContain('abort');
    expect(parts).not.toContain('text-delta');
  });
});
