import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../core/message.js';
import type { ModelRequest } from '../../core/model.js';
import { collectModelStream } from '../../model/collect-model-stream.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { defineTool } from '../../tools/define-tool.js';
import { fromAiSdkModel } from './from-ai-sdk-model.js';

/**
 * The same logical answer given whole (`doGenerate`'s content parts) and streamed (`doStream`'s parts):
 * both paths must come to the same `ModelResponse`, hostile answers included.
 */

const USAGE = {
  inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
};
const FINISH_REASON = { unified: 'tool-calls', raw: 'tool_use' };

const REQUEST: ModelRequest = { messages: [], tools: [], signal: new AbortController().signal };

/** A V3 model whose `doGenerate` answers `content` and whose `doStream` sends `stream`, then `finish`. */
function model(content: () => unknown[], stream: () => unknown[]): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'm',
    supportedUrls: {},
    doGenerate: (async () => ({
      content: content(),
      usage: USAGE,
      finishReason: FINISH_REASON,
      warnings: [],
    })) as unknown as LanguageModelV3['doGenerate'],
    doStream: (async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of stream()) controller.enqueue(part);
          controller.enqueue({ type: 'finish', usage: USAGE, finishReason: FINISH_REASON });
          controller.close();
        },
      }),
    })) as unknown as LanguageModelV3['doStream'],
  };
}

const trap = () =>
  new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
    },
  );
const throwingText = (type: 'text' | 'text-delta') => ({
  type,
  get [type === 'text' ? 'text' : 'delta'](): string {
    throw new Error('getter');
  },
});

const call = (id: string, input: string, more: object = {}) => ({
  type: 'tool-call',
  toolCallId: id,
  toolName: 'echo',
  input,
  ...more,
});
const start = (id: string, more: object = {}) => ({
  type: 'tool-input-start',
  id,
  toolName: 'echo',
  ...more,
});
const delta = (id: string, text: string, more: object = {}) => ({
  type: 'tool-input-delta',
  id,
  delta: text,
  ...more,
});
const result = (id: string) => ({ type: 'tool-result', toolCallId: id, toolName: 'echo', result: { ok: 1 } });
const PROVIDER = { providerExecuted: true };

interface PathCase {
  readonly name: string;
  readonly content: () => unknown[];
  readonly stream: () => unknown[];
  readonly message: AssistantMessage;
}

const cases: readonly PathCase[] = [
  {
    name: 'text and a local call',
    content: () => [{ type: 'text', text: 'Hi.' }, call('c1', '{"n":1}')],
    stream: () => [
      { type: 'text-delta', id: 't', delta: 'Hi.' },
      start('c1'),
      delta('c1', '{"n":'),
      delta('c1', '1}'),
      call('c1', '{"n":1}'),
    ],
    message: {
      role: 'assistant',
      content: 'Hi.',
      toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"n":1}' }],
    },
  },
  {
    name: 'providerExecuted on the tool-call only (its start said nothing)',
    content: () => [call('p1', '{"q":"x"}', PROVIDER), { type: 'text', text: 'Found.' }],
    stream: () => [
      start('p1'),
      delta('p1', '{"q":"x"}'),
      call('p1', '{"q":"x"}', PROVIDER),
      { type: 'text-delta', id: 't', delta: 'Found.' },
    ],
    message: { role: 'assistant', content: 'Found.' },
  },
  {
    name: 'providerExecuted on the start only (the tool-call says nothing)',
    content: () => [call('p1', '{}', PROVIDER), call('c1', '{"n":1}')],
    stream: () => [start('p1', PROVIDER), delta('p1', '{}'), call('p1', '{}'), call('c1', '{"n":1}')],
    message: {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"n":1}' }],
    },
  },
  {
    name: 'providerExecuted on a delta only',
    content: () => [call('p1', '{}', PROVIDER), { type: 'text', text: 'ok' }],
    stream: () => [
      start('p1'),
      delta('p1', '{', PROVIDER),
      delta('p1', '}'),
      call('p1', '{}'),
      { type: 'text-delta', id: 't', delta: 'ok' },
    ],
    message: { role: 'assistant', content: 'ok' },
  },
  {
    name: 'a tool-result for a call that did not say providerExecuted',
    content: () => [call('p1', '{}'), result('p1'), call('c1', '{"n":1}')],
    stream: () => [start('p1'), delta('p1', '{}'), call('p1', '{}'), result('p1'), call('c1', '{"n":1}')],
    message: {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"n":1}' }],
    },
  },
  {
    name: 'a tool-result before its call, and an approval request for another',
    content: () => [
      result('p1'),
      call('p1', '{}'),
      { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'p2' },
      call('p2', '{}'),
      { type: 'text', text: 'ok' },
    ],
    stream: () => [
      result('p1'),
      call('p1', '{}'),
      { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'p2' },
      start('p2'),
      delta('p2', '{}'),
      call('p2', '{}'),
      { type: 'text-delta', id: 't', delta: 'ok' },
    ],
    message: { role: 'assistant', content: 'ok' },
  },
  {
    name: 'unreadable parts in the middle (a trap, a throwing getter, junk, an input that is not text)',
    content: () => [
      { type: 'text', text: 'a' },
      trap(),
      throwingText('text'),
      null,
      7,
      { type: 'hologram' },
      { type: 'text', text: 5 },
      call('c2', '{"n":2}'),
      { type: 'tool-call', toolCallId: 'c3', toolName: 'echo', input: { n: 3 } },
      { type: 'tool-call', toolCallId: 'c4', toolName: 'echo', input: null },
      { type: 'text', text: 'b' },
    ],
    stream: () => [
      { type: 'text-delta', id: 't', delta: 'a' },
      trap(),
      throwingText('text-delta'),
      null,
      7,
      { type: 'hologram' },
      { type: 'text-delta', id: 't', delta: 5 },
      call('c2', '{"n":2}'),
      { type: 'tool-call', toolCallId: 'c3', toolName: 'echo', input: { n: 3 } },
      { type: 'tool-call', toolCallId: 'c4', toolName: 'echo', input: null },
      { type: 'text-delta', id: 't', delta: 'b' },
    ],
    message: {
      role: 'assistant',
      content: 'ab',
      toolCalls: [{ id: 'c2', name: 'echo', arguments: '{"n":2}' }],
    },
  },
  {
    name: 'duplicate ids: two calls, each kept (the loop gives the second an id of its own)',
    content: () => [call('c1', '{"n":1}'), call('c1', '{"n":2}')],
    stream: () => [
      start('c1'),
      delta('c1', '{"n":1}'),
      call('c1', '{"n":1}'),
      start('c1'),
      delta('c1', '{"n":2}'),
      call('c1', '{"n":2}'),
    ],
    message: {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', name: 'echo', arguments: '{"n":1}' },
        { id: 'c1', name: 'echo', arguments: '{"n":2}' },
      ],
    },
  },
  {
    name: "duplicate ids, one of them the provider's: neither runs",
    content: () => [call('p1', '{"n":1}', PROVIDER), call('p1', '{"n":2}'), { type: 'text', text: 'ok' }],
    stream: () => [
      call('p1', '{"n":1}', PROVIDER),
      start('p1'),
      delta('p1', '{"n":2}'),
      call('p1', '{"n":2}'),
      { type: 'text-delta', id: 't', delta: 'ok' },
    ],
    message: { role: 'assistant', content: 'ok' },
  },
  {
    name: "a local call before the provider's call of the same id is the provider's too",
    content: () => [call('p1', '{"n":1}'), call('p1', '{"n":2}', PROVIDER), { type: 'text', text: 'ok' }],
    stream: () => [
      call('p1', '{"n":1}'),
      start('p1', PROVIDER),
      call('p1', '{"n":2}', PROVIDER),
      { type: 'text-delta', id: 't', delta: 'ok' },
    ],
    message: { role: 'assistant', content: 'ok' },
  },
];

describe('fromAiSdkModel: the generate and the stream path agree', () => {
  it.each(cases)('$name', async ({ content, stream, message }) => {
    const adapted = fromAiSdkModel(model(content, stream));
    const expected = {
      message,
      usage: { inputTokens: 5, outputTokens: 3 },
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    };
    await expect(adapted.generate(REQUEST)).resolves.toEqual(expected);
    await expect(collectModelStream(adapted.stream(REQUEST))).resolves.toEqual(expected);
  });

  it.each([false, true])(
    'the loop never runs a call a later part says the provider ran (streamDeltas: %s)',
    async (streamDeltas) => {
      const ran: string[] = [];
      const echo = defineTool({
        name: 'echo',
        description: 'Echoes.',
        effect: 'read',
        execute: (args: unknown) => {
          ran.push(JSON.stringify(args));
          return 'done';
        },
      });
      const first = [
        start('p1'),
        delta('p1', '{"n":1}'),
        call('p1', '{"n":1}', PROVIDER),
        call('c1', '{"n":2}'),
        call('p2', '{"n":3}'),
        result('p2'),
      ];
      let round = 0;
      const answers = () => (round++ === 0 ? first : [{ type: 'text-delta', id: 't', delta: 'Done.' }]);
      let generated = 0;
      const content = () =>
        generated++ === 0
          ? [call('p1', '{"n":1}', PROVIDER), call('c1', '{"n":2}'), call('p2', '{"n":3}'), result('p2')]
          : [{ type: 'text', text: 'Done.' }];
      const outcome = await runToolLoop({
        model: fromAiSdkModel(model(content, answers)),
        messages: [{ role: 'user', content: 'go' }],
        tools: [echo],
        streamDeltas,
      });
      expect(outcome.type).toBe('completed');
      expect(ran).toEqual(['{"n":2}']);
    },
  );

  it('an answer with one unreadable part is kept, not lost as MODEL_ERROR', async () => {
    const outcome = await runToolLoop({
      model: fromAiSdkModel(
        model(
          () => [{ type: 'text', text: 'Hello.' }, trap()],
          () => [],
        ),
      ),
      messages: [{ role: 'user', content: 'go' }],
      tools: [],
    });
    expect(outcome).toMatchObject({ type: 'completed', text: 'Hello.' });
  });
});
