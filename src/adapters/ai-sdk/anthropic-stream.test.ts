// fromAiSdkModel's stream through the real @ai-sdk/anthropic provider, driven by streamToolLoop with
// streamDeltas, against a local fake of Anthropic's messages streaming SSE (127.0.0.1, no network).
import { createAnthropic } from '@ai-sdk/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelStreamError } from '../../core/errors/model-stream-error.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { streamToolLoop } from '../../run/stream-tool-loop.js';
import { historyProblems } from '../../testing/history-problems.js';
import { drainRun, textDeltas, toolInputDeltas } from './__fixtures__/drain-run.js';
import {
  type FakeAnswer,
  type FakeServer,
  sentMessages,
  startFakeAnthropicServer,
} from './__fixtures__/fake-anthropic-server.js';
import { ASK, weatherTool } from './__fixtures__/weather-tool.js';
import { fromAiSdkModel } from './from-ai-sdk-model.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(answers: readonly FakeAnswer[]) {
  const server = await startFakeAnthropicServer(answers);
  servers.push(server);
  return {
    server,
    model: fromAiSdkModel(createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' })('claude-x')),
  };
}

describe('fromAiSdkModel streaming with @ai-sdk/anthropic', () => {
  it('streams text and a tool_use block whose input comes as input_json_delta fragments, the outcome as unstreamed', async () => {
    const { server, model } = await start([
      { fixture: 'stream-tool-use.sse' },
      { fixture: 'stream-answer.sse' },
    ]);
    const cities: string[] = [];
    const { events, outcome } = await drainRun(
      streamToolLoop({ model, messages: ASK, tools: [weatherTool(cities)], streamDeltas: true }),
    );
    expect(textDeltas(events)).toEqual([
      [1, 'I will '],
      [1, 'look it up.'],
      [2, 'It is sunny'],
      [2, ' in Paris.'],
    ]);
    // The empty first fragment Anthropic sends is not a delta.
    expect(toolInputDeltas(events)).toEqual([
      [1, 0, 'toolu_01', 'weather', '{"city":'],
      [1, 0, 'toolu_01', 'weather', '"Par'],
      [1, 0, 'toolu_01', 'weather', 'is"}'],
    ]);
    expect(cities).toEqual(['Paris']);
    expect(server.requests[0]?.body).toMatchObject({ stream: true });

    const whole = await start([{ fixture: 'tool-use.json' }, { fixture: 'answer.json' }]);
    const plain = await runToolLoop({ model: whole.model, messages: ASK, tools: [weatherTool()] });
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.' });
    expect(outcome.messages).toEqual(plain.messages);
    expect(outcome.usage).toEqual(plain.usage);
    expect(outcome.usage).toEqual({ inputTokens: 40 + 75, outputTokens: 18 + 8, totalTokens: 141 });
    expect(historyProblems(outcome.messages)).toEqual([]);
    expect(sentMessages(server, 1)).toEqual(sentMessages(whole.server, 1));
  });

  it('stops as MODEL_ERROR on an error event mid-stream, the partial text kept and the history intact', async () => {
    const { model } = await start([{ fixture: 'stream-overloaded.sse' }]);
    const { events, outcome } = await drainRun(
      streamToolLoop({ model, messages: ASK, tools: [weatherTool()], streamDeltas: true }),
    );
    expect(textDeltas(events)).toEqual([[1, 'It is sunny']]);
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'MODEL_ERROR', messages: ASK });
    const error =
      outcome.type === 'stopped' && outcome.evidence.kind === 'error' ? outcome.evidence.error : undefined;
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'error-part', partial: { text: 'It is sunny', toolCalls: [] } });
    expect((error as ModelStreamError).cause).toMatchObject({ type: 'overloaded_error' });
  });
});
