// The gateway on Anthropic's wire, in front of a fake Anthropic provider (127.0.0.1), driven by the real
// clients: `@anthropic-ai/sdk` (`messages.create`, `messages.stream`) in the loop an app runs, and the AI
// SDK's `@ai-sdk/anthropic` under `generateText` / `streamText`. The app's one change is the base URL.
import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  anthropicMessagesOf,
  anthropicToolsOff,
  loopingAnthropicModel,
  startFakeAnthropic,
} from '../../../test/fake-providers/anthropic-messages-provider.js';
import { type FakeChatScript, scripted } from '../../../test/fake-providers/openai-chat-provider.js';
import { type OtelTestSdk, startOtelTestSdk } from '../../telemetry/__fixtures__/otel-test-sdk.js';
import { otelGatewayTelemetry } from '../../telemetry/otel-gateway-telemetry.js';
import { expectStoppedLoopTelemetry } from './__fixtures__/expect-stopped-loop-telemetry.js';
import { createGateway } from './create-gateway.js';
import type { GatewayOptions } from './gateway-options.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setUp(
  script: FakeChatScript,
  options: Omit<GatewayOptions, 'upstream'> = {},
  separate = false,
) {
  const provider = await startFakeAnthropic({ script });
  open.push(provider);
  const gateway = createGateway({
    // Either the one provider, or Anthropic's named apart with the gateway's key.
    upstream: separate
      ? { url: 'http://127.0.0.1:9', anthropic: { url: provider.url, apiKey: 'gateway-key' } }
      : { url: provider.url },
    ...options,
  });
  open.push(gateway);
  const { url } = await gateway.listen({ port: 0 });
  return { provider, gateway, url };
}

const TOOLS: Anthropic.Tool[] = ['getStatus', 'readPage'].map((name) => ({
  name,
  description: `the ${name} tool`,
  input_schema: { type: 'object', properties: {} },
}));

/** An app's tool loop over the Anthropic SDK: ask, run every `tool_use`, send the results back. */
async function runAnthropicLoop(options: {
  readonly baseURL: string;
  readonly run: (name: string, input: unknown) => string;
  readonly stream?: boolean;
  readonly cap?: number;
}) {
  const client = new Anthropic({ baseURL: options.baseURL, apiKey: 'app-key', maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the status of order A-1?' }];
  let executions = 0;
  let stopHeader: string | null = null;
  for (let round = 1; round <= (options.cap ?? 20); round++) {
    const params = { model: 'fake-claude', max_tokens: 1024, messages, tools: TOOLS };
    let message: Anthropic.Message;
    if (options.stream === true) message = await client.messages.stream(params).finalMessage();
    else {
      const { data, response } = await client.messages.create(params).withResponse();
      message = data;
      stopHeader = response.headers.get('x-toolwarden-stop');
    }
    messages.push({ role: 'assistant', content: message.content });
    const uses = message.content.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) {
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      return { rounds: round, executions, final: text, stopReason: message.stop_reason, stopHeader };
    }
    const results: Anthropic.ToolResultBlockParam[] = uses.map((use) => {
      executions++;
      return { type: 'tool_result', tool_use_id: use.id, content: options.run(use.name, use.input) };
    });
    messages.push({ role: 'user', content: results });
  }
  return { rounds: options.cap ?? 20, executions, final: undefined, stopReason: undefined, stopHeader };
}

const PENDING = () => '{"state":"PENDING"}';
const looping = () =>
  loopingAnthropicModel({
    tool: 'getStatus',
    arguments: { id: 'A-1' },
    answer: 'Order A-1 is still pending.',
  });

describe.each([false, true])('Anthropic Messages through the gateway (stream: %s)', (stream) => {
  it('stops a looping model within three rounds of the round that shows it, with the model’s own answer', async () => {
    const { provider, url } = await setUp(looping());
    const direct = await runAnthropicLoop({ baseURL: provider.url, run: PENDING, stream });
    expect(direct).toMatchObject({ rounds: 20, executions: 20, final: undefined });
    const before = provider.messageRequests().length;

    const run = await runAnthropicLoop({ baseURL: url, run: PENDING, stream });
    expect(run).toMatchObject({
      rounds: 4,
      executions: 3,
      final: 'Order A-1 is still pending.',
      stopReason: 'end_turn',
    });
    if (!stream)
      expect(run.stopHeader).toBe('LOOP_DETECTED; detector=exact-repeat; tools=getStatus; answer=model');
    const sent = provider.messageRequests().slice(before);
    expect(sent).toHaveLength(5);
    const last = sent[4];
    expect((last?.body as { tool_choice?: unknown } | undefined)?.tool_choice).toEqual({ type: 'none' });
    expect(JSON.stringify(anthropicMessagesOf(last).at(-1))).toContain('No more tool calls can run');
    // The repeat before the stop carried the guard's note inside its tool_result.
    expect(JSON.stringify(anthropicMessagesOf(sent[2]).at(-1))).toContain(
      'NOTE from the runtime: getStatus was called with these same arguments 2 times',
    );
    // The app's key and version went to the provider as they came.
    // (`@anthropic-ai/sdk` 1.10 sends its key as `authorization: Bearer`; older ones, and curl, `x-api-key`.)
    expect(sent[0]?.headers.authorization ?? sent[0]?.headers['x-api-key']).toMatch(/app-key$/);
    expect(sent[0]?.headers['anthropic-version']).toBeDefined();
  });

  it('writes the final message itself when the provider ignores tool_choice none', async () => {
    const stubborn: FakeChatScript = () => ({
      kind: 'tool-calls',
      calls: [{ name: 'getStatus', arguments: { id: 'A-1' } }],
    });
    const { url } = await setUp(stubborn);
    const run = await runAnthropicLoop({ baseURL: url, run: PENDING, stream });
    expect(run.executions).toBe(3);
    expect(run.final).toContain('I could not finish this request: it kept repeating the same steps');
    expect(run.stopReason).toBe('end_turn');
  });

  it('holds the total limit: the answer whose calls would pass it is withheld whole', async () => {
    let n = 0;
    const pairs: FakeChatScript = (request) =>
      anthropicToolsOff(request)
        ? { kind: 'text', text: 'Enough for now.' }
        : {
            kind: 'tool-calls',
            calls: [
              { name: 'getStatus', arguments: { n: ++n } },
              { name: 'readPage', arguments: { n: ++n } },
            ],
          };
    const { url } = await setUp(pairs, { limits: { total: 5 } });
    const run = await runAnthropicLoop({ baseURL: url, run: PENDING, stream });
    expect(run).toMatchObject({ executions: 4, final: 'Enough for now.' });
    if (!stream)
      expect(run.stopHeader).toBe('TOOL_CALL_LIMIT; scope=total; tool=getStatus; limit=5; answer=model');
  });

  it('holds the per-tool limit, and a secret in a tool result never reaches the provider', async () => {
    const SECRET = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';
    let page = 0;
    const paging: FakeChatScript = (request) =>
      anthropicToolsOff(request)
        ? { kind: 'text', text: 'Here are the pages I read.' }
        : { kind: 'tool-calls', calls: [{ name: 'readPage', arguments: { page: ++page } }] };
    const { provider, url } = await setUp(paging, { limits: { tools: { readPage: 4 } } }, true);
    const run = await runAnthropicLoop({
      baseURL: url,
      stream,
      run: (_name, input) => `page ${JSON.stringify(input)}: {"token":"${SECRET}"}`,
    });
    expect(run).toMatchObject({ executions: 4, final: 'Here are the pages I read.' });
    if (!stream)
      expect(run.stopHeader).toBe('TOOL_CALL_LIMIT; scope=per-tool; tool=readPage; limit=4; answer=model');
    for (const request of provider.messageRequests()) {
      expect(request.text).not.toContain(SECRET);
      // The gateway's own key, for the provider named apart.
      expect(request.headers['x-api-key']).toBe('gateway-key');
      expect(request.headers.authorization).toBeUndefined();
    }
    expect(provider.messageRequests().at(-2)?.text).toContain('[redacted');
  });
});

describe('Anthropic: parallel calls, and a 5xx', () => {
  it('releases parallel tool_use blocks streamed in fragments, whole, with the text before them', async () => {
    const { url } = await setUp(
      scripted({
        kind: 'tool-calls',
        text: 'Checking both.',
        calls: [
          { name: 'getStatus', arguments: { id: 'A-1', note: 'x'.repeat(30) } },
          { name: 'readPage', arguments: { page: 2 } },
        ],
      }),
    );
    const client = new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'go' }], tools: TOOLS })
      .finalMessage();
    expect(message.content).toEqual([
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'toolu_0_0', name: 'getStatus', input: { id: 'A-1', note: 'x'.repeat(30) } },
      { type: 'tool_use', id: 'toolu_0_1', name: 'readPage', input: { page: 2 } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('passes a 529 through as it came', async () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    const { url } = await setUp(scripted({ kind: 'error', status: 529, body }));
    const client = new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0 });
    const failure = await client.messages
      .create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((failure as InstanceType<typeof Anthropic.APIError>).error).toEqual(body);
  });
});

describe('Anthropic errors and cut streams', () => {
  it('passes a 429 through with its body and headers', async () => {
    const body = { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } };
    const { url } = await setUp(
      scripted({ kind: 'error', status: 429, body, headers: { 'retry-after': '7' } }),
    );
    const response = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual(body);
  });

  it('ends a cut stream cleanly, with no tool_use dangling', async () => {
    const { url } = await setUp(
      scripted({
        kind: 'cut',
        after: 9,
        reply: {
          kind: 'tool-calls',
          text: 'Let me check.',
          calls: [{ name: 'getStatus', arguments: { id: 'A-1' } }],
        },
      }),
    );
    const client = new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: TOOLS })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Let me check.' }]);
    expect(message.stop_reason).toBe('max_tokens');
  });

  it('answers a body that is not JSON with a 400 in Anthropic’s error shape', async () => {
    const { url } = await setUp(looping());
    const response = await fetch(`${url}/v1/messages`, { method: 'POST', body: '{nope' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});

describe('the gateway under the AI SDK’s Anthropic provider', () => {
  function app(baseURL: string) {
    const executed: string[] = [];
    const model = createAnthropic({ baseURL, apiKey: 'app-key' })('fake-claude');
    const tools = {
      getStatus: tool({
        description: 'The status of an order',
        inputSchema: z.object({ id: z.string() }),
        execute: async ({ id }) => {
          executed.push(id);
          return { state: 'PENDING' };
        },
      }),
    };
    return { model, tools, executed };
  }

  it('generateText: the loop ends on the model’s answer after three executions', async () => {
    const { provider, url } = await setUp(looping());
    const guarded = app(`${url}/v1`);
    const result = await generateText({
      model: guarded.model,
      tools: guarded.tools,
      prompt: 'Status of A-1?',
      stopWhen: stepCountIs(20),
    });
    expect(result.steps).toHaveLength(4);
    expect(guarded.executed).toEqual(['A-1', 'A-1', 'A-1']);
    expect(result.text).toBe('Order A-1 is still pending.');
    expect(provider.messageRequests().filter(anthropicToolsOff)).toHaveLength(1);
  });

  it('streamText: text streams through, the withheld call never reaches the app', async () => {
    const { url } = await setUp(looping());
    const guarded = app(`${url}/v1`);
    const result = streamText({
      model: guarded.model,
      tools: guarded.tools,
      prompt: 'Status of A-1?',
      stopWhen: stepCountIs(20),
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(await result.text).toBe('Order A-1 is still pending.');
    expect(guarded.executed).toHaveLength(3);
    expect(parts.filter((type) => type === 'tool-call')).toHaveLength(3);
    expect(parts).not.toContain('error');
  });
});

describe('Anthropic: an app that goes away', () => {
  it('lets the app go away in the middle of a stream: the provider’s request is aborted, the gateway serves on', async () => {
    const { provider, url } = await setUp(() => ({ kind: 'text', text: 'word '.repeat(20_000) }));
    const client = new Anthropic({ baseURL: url, apiKey: 'app-key', maxRetries: 0 });
    const ask = {
      model: 'fake-claude',
      max_tokens: 1024,
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    const controller = new AbortController();
    const stream = await client.messages.create({ ...ask, stream: true }, { signal: controller.signal });
    let seen = '';
    try {
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
          seen += event.delta.text;
        if (seen.length >= 50) controller.abort();
      }
    } catch (error) {
      // The SDK ends the iteration with its abort error, or quietly.
      expect((error as Error).name).toBe('APIUserAbortError');
    }
    expect(seen.length).toBeGreaterThanOrEqual(50);
    expect(seen.length).toBeLessThan(100_000);
    await vi.waitFor(() => expect(provider.aborted()).toBe(1));
    // Nothing hangs or crashes: the next request is served whole (and `close` in afterEach returns).
    const next = await client.messages.create(ask);
    expect(next.content[0]?.type === 'text' && next.content[0].text).toHaveLength(100_000);
  });
});

describe('Anthropic: OpenTelemetry', () => {
  it('reports a chat span per provider call, an execute_tool span per call the app ran, and the stop', async () => {
    const sdk: OtelTestSdk = startOtelTestSdk();
    open.push({ close: () => sdk.shutdown() });
    const telemetry = otelGatewayTelemetry({ tracer: sdk.tracer, meter: sdk.meter });
    const { gateway, url } = await setUp(looping(), { telemetry });
    const run = await runAnthropicLoop({ baseURL: url, run: PENDING });
    await gateway.close();
    expect(run).toMatchObject({ executions: 3, final: 'Order A-1 is still pending.' });

    await expectStoppedLoopTelemetry(sdk, { provider: 'anthropic', model: 'fake-claude' });
  });
});
