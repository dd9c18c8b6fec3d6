import { generateText, type ModelMessage, stepCountIs, type ToolSet, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MemoryStore } from '../../index.js';
import {
  callsOf,
  scriptedModel,
  textOf,
  toolOutputsIn,
  toolsOffered,
} from './__fixtures__/guard-tools-model.js';
import { guardTools } from './guard-tools.js';

// Each test runs the real `generateText` of ai@6 twice, with the plain tools and with `guardTools`, and
// shows what the plain loop does and what the guard changes.

describe('a tool error reaches the model', () => {
  const tools = {
    lookup: tool({
      description: 'Look up an order.',
      inputSchema: z.object({ id: z.string() }),
      execute: async (): Promise<string> => {
        throw new Error('db password=hunter2 connection refused');
      },
    }),
  };
  const run = async (given: ToolSet) => {
    const model = scriptedModel((_, index) =>
      index === 0 ? callsOf({ id: 'c1', name: 'lookup', input: { id: '42' } }) : textOf('Sorry.'),
    );
    await generateText({ model, tools: given, prompt: 'Where is order 42?', stopWhen: stepCountIs(3) });
    return toolOutputsIn(model.doGenerateCalls[1]?.prompt ?? []).get('c1');
  };

  it('as written with plain tools, redacted and classified with guardTools', async () => {
    expect(await run(tools)).toEqual({ type: 'error-text', value: 'db password=hunter2 connection refused' });
    const guarded = (await run(guardTools(tools).tools)) as { type: string; value: string };
    expect(guarded.type).toBe('error-text');
    expect(guarded.value).toMatch(/^TOOL_ERROR/);
    expect(guarded.value).not.toContain('hunter2');
    expect(guarded.value).not.toContain('password');
  });
});

describe('a tool error that echoes what the model sent', () => {
  it('shows the value the model sent (showErrorMessages), redacts what it did not send', async () => {
    const tools = {
      readFile: tool({
        description: 'Read a file.',
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }): Promise<string> => {
          throw new Error(`ENOENT: no such file or directory, open '${path}' (root /srv/app)`);
        },
      }),
    };
    const model = scriptedModel((_, index) =>
      index === 0
        ? callsOf({ id: 'c1', name: 'readFile', input: { path: '/data/reports/q3.csv' } })
        : textOf('Sorry.'),
    );
    const guarded = guardTools(tools, { showErrorMessages: true }).tools;
    await generateText({ model, tools: guarded, prompt: 'Read q3', stopWhen: stepCountIs(3) });
    expect(toolOutputsIn(model.doGenerateCalls[1]?.prompt ?? []).get('c1')).toEqual({
      type: 'error-text',
      value:
        "TOOL_ERROR: ENOENT: no such file or directory, open '/data/reports/q3.csv' (root [redacted:path])",
    });
  });
});

describe('sending the same approval messages again', () => {
  const sendEmail = (runs: string[]) =>
    tool({
      description: 'Send an email.',
      inputSchema: z.object({ to: z.string() }),
      needsApproval: true,
      execute: async ({ to }) => {
        runs.push(to);
        return { sent: to, id: `msg-${runs.length}` };
      },
    });
  const model = () =>
    scriptedModel((options) =>
      options.prompt.some((message) => message.role === 'tool')
        ? textOf('Sent.')
        : callsOf({ id: 'c1', name: 'sendEmail', input: { to: 'bob@example.com' } }),
    );

  /** Asks, approves, then sends the same approval messages again; `toolsFor` gives each request's tools. */
  const approveTwice = async (toolsFor: () => ToolSet) => {
    const prompt: ModelMessage[] = [{ role: 'user', content: 'Email Bob.' }];
    const first = await generateText({ model: model(), tools: toolsFor(), messages: prompt });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
    const approved: ModelMessage[] = [
      ...prompt,
      ...first.response.messages,
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
      },
    ];
    const outputs: unknown[] = [];
    for (let request = 0; request < 2; request++) {
      const resumed = model();
      await generateText({ model: resumed, tools: toolsFor(), messages: approved });
      outputs.push(toolOutputsIn(resumed.doGenerateCalls[0]?.prompt ?? []).get('c1'));
    }
    return outputs;
  };

  it('runs the tool twice with plain tools, once with guardTools (a store and a session)', async () => {
    const plainRuns: string[] = [];
    const plain = { sendEmail: sendEmail(plainRuns) };
    const plainOutputs = await approveTwice(() => plain);
    expect(plainRuns).toEqual(['bob@example.com', 'bob@example.com']);
    expect(plainOutputs[1]).toEqual({ type: 'json', value: { sent: 'bob@example.com', id: 'msg-2' } });

    const guardedRuns: string[] = [];
    const tools = { sendEmail: sendEmail(guardedRuns) };
    const store = new MemoryStore();
    // A server builds a guard per request; the store and the conversation's id make the replay visible.
    const outputs = await approveTwice(
      // No `writes`: a tool with `needsApproval` is a write.
      () => guardTools(tools, { store, sessionId: 'conv-1' }).tools,
    );
    expect(guardedRuns).toEqual(['bob@example.com']);
    expect(outputs).toEqual([
      { type: 'json', value: { sent: 'bob@example.com', id: 'msg-1' } },
      { type: 'json', value: { sent: 'bob@example.com', id: 'msg-1' } },
    ]);
  });
});

describe('a hung tool', () => {
  const tools = {
    slow: tool({
      description: 'Never answers.',
      inputSchema: z.object({}),
      execute: () => new Promise<string>(() => undefined),
    }),
  };
  const model = () =>
    scriptedModel((_, index) =>
      index === 0 ? callsOf({ id: 'c1', name: 'slow', input: {} }) : textOf('It timed out.'),
    );
  // The per-tool timeout and the bound pass on a fake clock.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  /** The run's text, or `still running` when the bound passes first (the plain loop never ends). */
  const bounded = async (run: Promise<{ text: string }>) => {
    const bound = new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 1000));
    const first = Promise.race([run.then((result) => result.text), bound]);
    await vi.advanceTimersByTimeAsync(1000);
    return await first;
  };

  it('blocks the step with plain tools; guardTools answers the model at the per-tool timeout', async () => {
    expect(
      await bounded(generateText({ model: model(), tools, prompt: 'Go.', stopWhen: stepCountIs(3) })),
    ).toBe('still running');
    const guarded = guardTools(tools, { perTool: { slow: { timeoutMs: 50, retries: 0 } } });
    const guardedModel = model();
    const text = await bounded(
      generateText({ model: guardedModel, tools: guarded.tools, prompt: 'Go.', stopWhen: stepCountIs(3) }),
    );
    expect(text).toBe('It timed out.');
    const output = toolOutputsIn(guardedModel.doGenerateCalls[1]?.prompt ?? []).get('c1') as {
      value: string;
    };
    expect(output.value).toMatch(/^TOOL_UNAVAILABLE/);
  });
});

describe('a model repeating the same call', () => {
  const searches = (runs: string[]) => ({
    search: tool({
      description: 'Search the catalogue.',
      inputSchema: z.object({ q: z.string() }),
      execute: async ({ q }) => {
        runs.push(q);
        return { hits: [] as string[] };
      },
    }),
  });
  // Repeats the call while it may call tools; answers in text when the tools are off.
  const model = () =>
    scriptedModel((options, index) =>
      toolsOffered(options)
        ? callsOf({ id: `c${index}`, name: 'search', input: { q: 'blue widget' } })
        : textOf('I found no blue widget.'),
    );

  it('runs to the step cap with empty text with plain tools; guardTools stops it with evidence and a final answer', async () => {
    const plainRuns: string[] = [];
    const plain = await generateText({
      model: model(),
      tools: searches(plainRuns),
      prompt: 'Find a blue widget.',
      stopWhen: stepCountIs(10),
    });
    expect(plain.steps).toHaveLength(10);
    expect(plain.text).toBe('');
    expect(plainRuns).toHaveLength(10);

    const runs: string[] = [];
    const evidence: unknown[] = [];
    const guarded = guardTools(searches(runs), { onLoop: (found) => evidence.push(found) });
    const guardedModel = model();
    const result = await generateText({
      model: guardedModel,
      tools: guarded.tools,
      prompt: 'Find a blue widget.',
      stopWhen: [stepCountIs(10), guarded.stopWhen],
      prepareStep: guarded.prepareStep,
    });
    expect(result.text).toBe('I found no blue widget.');
    expect(runs).toHaveLength(3);
    expect(result.steps).toHaveLength(4);
    const last = guardedModel.doGenerateCalls.at(-1);
    expect(last?.tools).toEqual([]);
    expect(last?.toolChoice).toEqual({ type: 'none' });
    expect(guarded.stopEvidence()).toMatchObject({
      detector: 'exact-repeat',
      toolNames: ['search'],
      occurrences: 3,
    });
    expect(evidence).toEqual([guarded.stopEvidence()]);
    // The guard's memory is plain JSON.
    expect(JSON.parse(JSON.stringify(guarded.guardState()))).toEqual(guarded.guardState());
  });

  it('stops at once, with the evidence, when only stopWhen is wired (the plain AI SDK ending: no text)', async () => {
    const runs: string[] = [];
    const guarded = guardTools(searches(runs));
    const result = await generateText({
      model: model(),
      tools: guarded.tools,
      prompt: 'Find a blue widget.',
      stopWhen: [stepCountIs(10), guarded.stopWhen],
    });
    expect(result.steps).toHaveLength(3);
    expect(result.text).toBe('');
    expect(guarded.stopEvidence()?.detector).toBe('exact-repeat');
  });
});
