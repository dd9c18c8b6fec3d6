// The gateway on OpenAI's Responses wire, in front of a fake Responses provider (127.0.0.1), driven by the
// real `openai` SDK (`responses.create`, plain and `stream: true`) in the loop an app runs, both ways an
// app sends its history: the whole of it in `input` every time, or `previous_response_id` and only what is
// new (the gateway then rebuilds the turn from its own memory of each answer).
import OpenAI from 'openai';
import type { Response, ResponseInputItem } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeChatScript, scripted } from '../../../test/fake-providers/openai-chat-provider.js';
import {
  loopingResponsesModel,
  responsesToolsOff,
  startFakeResponses,
} from '../../../test/fake-providers/openai-responses-provider.js';
import { MemoryStore } from '../../store/memory-store.js';
import { type OtelTestSdk, startOtelTestSdk } from '../../telemetry/__fixtures__/otel-test-sdk.js';
import { otelGatewayTelemetry } from '../../telemetry/otel-gateway-telemetry.js';
import { expectStoppedLoopTelemetry } from './__fixtures__/expect-stopped-loop-telemetry.js';
import { memoryAuditSink } from './__fixtures__/recorders.js';
import { createGateway } from './create-gateway.js';
import type { GatewayOptions } from './gateway-options.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setUp(script: FakeChatScript, options: Omit<GatewayOptions, 'upstream'> = {}) {
  const provider = await startFakeResponses({ script });
  open.push(provider);
  const gateway = createGateway({ upstream: { url: provider.url }, ...options });
  open.push(gateway);
  const { url } = await gateway.listen({ port: 0 });
  return { provider, gateway, url, baseURL: `${url}/v1` };
}

const TOOLS: OpenAI.Responses.FunctionTool[] = ['getStatus', 'readPage'].map((name) => ({
  type: 'function',
  name,
  description: `the ${name} tool`,
  parameters: { type: 'object', properties: {} },
  strict: false,
}));

/**
 * `switch`: the whole history (with `store: true`) for the first two requests, then chained.
 * `conversation`: a conversation the provider keeps (`conversation`), each request with what is new only.
 */
type Form = 'history' | 'chain' | 'switch' | 'conversation';

/** An app's tool loop over `responses.create`: ask, run every `function_call`, send the outputs back. */
async function runResponsesLoop(options: {
  readonly baseURL: string;
  readonly form: Form;
  readonly run: (name: string, args: string) => string;
  readonly stream?: boolean;
  readonly cap?: number;
  readonly headers?: Record<string, string>;
  readonly conversation?: string;
}) {
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: 'app-key',
    maxRetries: 0,
    defaultHeaders: options.headers ?? {},
  });
  const history: ResponseInputItem[] = [{ role: 'user', content: 'What is the status of order A-1?' }];
  let input: ResponseInputItem[] = [...history];
  let previous: string | undefined;
  let executions = 0;
  let stopHeader: string | null = null;
  for (let round = 1; round <= (options.cap ?? 20); round++) {
    const params = {
      model: 'fake-model',
      input,
      tools: TOOLS,
      ...(options.form === 'history' ? { store: false } : { store: true }),
      ...(options.form === 'conversation' ? { conversation: options.conversation ?? 'conv_test' } : {}),
      ...(previous === undefined ? {} : { previous_response_id: previous }),
    };
    let response: Response | undefined;
    if (options.stream === true) {
      const stream = await client.responses.create({ ...params, stream: true });
      for await (const event of stream)
        if (event.type === 'response.completed' || event.type === 'response.incomplete')
          response = event.response;
    } else {
      const { data, response: raw } = await client.responses.create(params).withResponse();
      response = data;
      stopHeader = raw.headers.get('x-toolwarden-stop');
    }
    if (response === undefined) throw new Error('no response');
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) {
      const text = response.output
        .flatMap((item) => (item.type === 'message' ? item.content : []))
        .map((part) => (part.type === 'output_text' ? part.text : ''))
        .join('');
      return { rounds: round, executions, final: text, stopHeader, lastId: response.id };
    }
    const outputs: ResponseInputItem[] = calls.map((call) => {
      executions++;
      return {
        type: 'function_call_output',
        call_id: call.call_id,
        output: options.run(call.name, call.arguments),
      };
    });
    history.push(...(response.output as ResponseInputItem[]), ...outputs);
    if (options.form === 'chain' || (options.form === 'switch' && round >= 2)) {
      previous = response.id;
      input = outputs;
    } else if (options.form === 'conversation') input = outputs;
    else input = [...history];
  }
  return { rounds: options.cap ?? 20, executions, final: undefined, stopHeader, lastId: undefined };
}

const PENDING = () => '{"state":"PENDING"}';
const looping = () =>
  loopingResponsesModel({
    tool: 'getStatus',
    arguments: { id: 'A-1' },
    answer: 'Order A-1 is still pending.',
  });

describe.each([
  ['history', false],
  ['history', true],
  ['chain', false],
  ['chain', true],
  ['conversation', false],
  ['conversation', true],
] as const)('OpenAI Responses through the gateway (%s, stream: %s)', (form, stream) => {
  it('stops a looping model within three rounds of the round that shows it, with the model’s own answer', async () => {
    const { provider, baseURL } = await setUp(looping());
    const direct = await runResponsesLoop({ baseURL: `${provider.url}/v1`, form, run: PENDING, stream });
    expect(direct).toMatchObject({ rounds: 20, executions: 20, final: undefined });
    const before = provider.responseRequests().length;

    const run = await runResponsesLoop({ baseURL, form, run: PENDING, stream });
    expect(run).toMatchObject({ rounds: 4, executions: 3, final: 'Order A-1 is still pending.' });
    if (!stream)
      expect(run.stopHeader).toBe('LOOP_DETECTED; detector=exact-repeat; tools=getStatus; answer=model');
    const sent = provider.responseRequests().slice(before);
    expect(sent).toHaveLength(5);
    expect(sent.slice(0, 4).some(responsesToolsOff)).toBe(false);
    expect((sent[4]?.body as { tool_choice?: unknown } | undefined)?.tool_choice).toBe('none');
    expect(sent[4]?.text).toContain('No more tool calls can run');
    expect(sent[2]?.text).toContain('getStatus was called with these same arguments 2 times');
    // The app's last answer is one it can chain from: the provider's own, with no call left unanswered.
    expect(run.lastId).toBe(`resp_fake_${sent[4]?.index}`);
  });

  it('writes the final message itself when the provider ignores tool_choice none', async () => {
    const stubborn: FakeChatScript = () => ({
      kind: 'tool-calls',
      calls: [{ name: 'getStatus', arguments: { id: 'A-1' } }],
    });
    const { baseURL } = await setUp(stubborn);
    const run = await runResponsesLoop({ baseURL, form, run: PENDING, stream });
    expect(run.executions).toBe(3);
    expect(run.final).toContain('I could not finish this request: it kept repeating the same steps');
    if (!stream) expect(run.stopHeader).toContain('answer=gateway');
  });

  it('holds the total limit: the answer whose calls would pass it is withheld whole', async () => {
    let n = 0;
    const pairs: FakeChatScript = (request) =>
      responsesToolsOff(request)
        ? { kind: 'text', text: 'Enough for now.' }
        : {
            kind: 'tool-calls',
            calls: [
              { name: 'getStatus', arguments: { n: ++n } },
              { name: 'readPage', arguments: { n: ++n } },
            ],
          };
    const { baseURL } = await setUp(pairs, { limits: { total: 5 } });
    const run = await runResponsesLoop({ baseURL, form, run: PENDING, stream });
    expect(run).toMatchObject({ executions: 4, final: 'Enough for now.' });
    if (!stream)
      expect(run.stopHeader).toBe('TOOL_CALL_LIMIT; scope=total; tool=getStatus; limit=5; answer=model');
  });

  it('holds the per-tool limit, and a secret in a tool output never reaches the provider', async () => {
    const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    let page = 0;
    const paging: FakeChatScript = (request) =>
      responsesToolsOff(request)
        ? { kind: 'text', text: 'Here are the pages I read.' }
        : { kind: 'tool-calls', calls: [{ name: 'readPage', arguments: { page: ++page } }] };
    const { provider, baseURL } = await setUp(paging, { limits: { tools: { readPage: 4 } } });
    const run = await runResponsesLoop({
      baseURL,
      form,
      stream,
      run: (_name, args) => `page ${args}: {"apiKey":"${SECRET}"}`,
    });
    expect(run).toMatchObject({ executions: 4, final: 'Here are the pages I read.' });
    if (!stream)
      expect(run.stopHeader).toBe('TOOL_CALL_LIMIT; scope=per-tool; tool=readPage; limit=4; answer=model');
    for (const request of provider.responseRequests()) expect(request.text).not.toContain(SECRET);
  });
});

describe('Responses: the memory of a chain', () => {
  it('an app that sent the turn whole and then chains: the limits and the guard go on from the session', async () => {
    for (const stream of [false, true]) {
      const { provider, baseURL } = await setUp(looping());
      const run = await runResponsesLoop({ baseURL, form: 'switch', run: PENDING, stream });
      // As with the whole history every time: the third repeat is the last (the first two were sent whole).
      expect(run).toMatchObject({ rounds: 4, executions: 3, final: 'Order A-1 is still pending.' });
      if (!stream)
        expect(run.stopHeader).toBe('LOOP_DETECTED; detector=exact-repeat; tools=getStatus; answer=model');
      const sent = provider.responseRequests();
      expect(sent.map((request) => 'previous_response_id' in (request.body as object))).toEqual([
        false,
        false,
        true,
        true,
        true,
      ]);
    }
    // The per-tool limit counts the rounds sent whole too.
    let page = 0;
    const paging: FakeChatScript = (request) =>
      responsesToolsOff(request)
        ? { kind: 'text', text: 'Here are the pages I read.' }
        : { kind: 'tool-calls', calls: [{ name: 'readPage', arguments: { page: ++page } }] };
    const { baseURL } = await setUp(paging, { limits: { tools: { readPage: 4 } } });
    const run = await runResponsesLoop({ baseURL, form: 'switch', run: PENDING });
    expect(run).toMatchObject({ executions: 4, final: 'Here are the pages I read.' });
    expect(run.stopHeader).toBe('TOOL_CALL_LIMIT; scope=per-tool; tool=readPage; limit=4; answer=model');
  });

  it('after a stop the gateway wrote itself, the next question chained from it reaches the provider whole', async () => {
    const stubborn: FakeChatScript = (request) =>
      JSON.stringify(request.body).includes('And order B-2?')
        ? { kind: 'text', text: 'B-2 shipped.' }
        : { kind: 'tool-calls', calls: [{ name: 'getStatus', arguments: { id: 'A-1' } }] };
    for (const [stream, onStop] of [
      [false, 'synthesize'],
      [true, 'synthesize'],
      [false, 'final-answer'],
      [true, 'final-answer'],
    ] as const) {
      // `final-answer`: the provider asks for tools again with tools off, and the gateway writes the end.
      const { provider, baseURL } = await setUp(stubborn, { onStop });
      const run = await runResponsesLoop({ baseURL, form: 'chain', run: PENDING, stream });
      expect(run.final).toContain('I could not finish this request');
      // The app chains its next question from the response it got, whose withheld call the provider still holds.
      const client = new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0 });
      const next = await client.responses.create({
        model: 'm',
        previous_response_id: run.lastId as string,
        input: [{ role: 'user', content: 'And order B-2?' }],
        tools: TOOLS,
        store: true,
      });
      expect(next.output_text).toBe('B-2 shipped.');
      // The gateway answered the withheld call itself: it never ran.
      expect(provider.responseRequests().at(-1)?.text).toContain('Not run: toolwarden stopped this turn');
    }
  });

  it('without the memory (another gateway, no shared store), judges what the request shows and says so in the audit', async () => {
    // The model repeats its call six times, then answers (the turn ends, and its run record is written).
    const script: FakeChatScript = (request) =>
      request.index >= 6 ? { kind: 'text', text: 'still pending' } : looping()(request);
    const provider = await startFakeResponses({ script });
    open.push(provider);
    const audit = memoryAuditSink();
    // Two gateways with stores of their own, served alternately (a load balancer with no shared store).
    const gateways = [
      createGateway({ upstream: { url: provider.url }, store: new MemoryStore(), audit }),
      createGateway({ upstream: { url: provider.url }, store: new MemoryStore(), audit }),
    ];
    const urls: string[] = [];
    for (const gateway of gateways) {
      open.push(gateway);
      urls.push(`${(await gateway.listen({ port: 0 })).url}/v1`);
    }
    let turn = 0;
    const alternating = (input: string | URL | Request, init?: RequestInit) => {
      const target = String(input).replace(/^http:\/\/[^/]+\/v1/, urls[turn++ % 2] as string);
      return fetch(target, init);
    };
    const client = new OpenAI({ baseURL: urls[0], apiKey: 'k', maxRetries: 0, fetch: alternating });
    let response = await client.responses.create({
      model: 'm',
      input: 'Status of A-1?',
      tools: TOOLS,
      store: true,
    });
    let executions = 0;
    for (let round = 0; round < 10; round++) {
      const call = response.output.find((item) => item.type === 'function_call');
      if (call === undefined) break;
      executions++;
      response = await client.responses.create({
        model: 'm',
        previous_response_id: response.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: PENDING() }],
        tools: TOOLS,
        store: true,
      });
    }
    // No gateway saw two rounds in a row: the loop is not stopped (each request judged alone), and the audit says so.
    expect(executions).toBe(6);
    const runs = audit.records.filter((record) => record.kind === 'call' || record.kind === 'run');
    expect(runs.length).toBeGreaterThan(0);
    expect(
      audit.records.every(
        (record) =>
          !('turnId' in record) ||
          String(record.turnId).startsWith('no-memory:') ||
          record.turnId.length === 32,
      ),
    ).toBe(true);
    expect(
      audit.records.some((record) => 'turnId' in record && String(record.turnId).startsWith('no-memory:')),
    ).toBe(true);
  });
});

describe('Responses: parallel calls, and a 5xx', () => {
  it('releases parallel function calls streamed in fragments, whole, with the text before them', async () => {
    const { baseURL } = await setUp(
      scripted({
        kind: 'tool-calls',
        text: 'Checking both.',
        calls: [
          { name: 'getStatus', arguments: { id: 'A-1', note: 'x'.repeat(30) } },
          { name: 'readPage', arguments: { page: 2 } },
        ],
      }),
    );
    const client = new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0 });
    const final = await client.responses.stream({ model: 'm', input: 'go', tools: TOOLS }).finalResponse();
    expect(final.output_text).toBe('Checking both.');
    expect(
      final.output
        .filter((item) => item.type === 'function_call')
        .map((item) => [item.call_id, item.arguments]),
    ).toEqual([
      ['call_0_0', JSON.stringify({ id: 'A-1', note: 'x'.repeat(30) })],
      ['call_0_1', '{"page":2}'],
    ]);
  });

  it('passes a 503 through as it came', async () => {
    const { baseURL } = await setUp(scripted({ kind: 'error', status: 503 }));
    const client = new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0 });
    const failure = await client.responses
      .create({ model: 'm', input: 'hi' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('fake error 503');
  });
});

describe('Responses errors and cut streams', () => {
  it('passes a 429 through with its body and headers', async () => {
    const body = {
      error: { message: 'slow down', type: 'rate_limit', param: null, code: 'rate_limit_exceeded' },
    };
    const { url } = await setUp(
      scripted({ kind: 'error', status: 429, body, headers: { 'retry-after': '7' } }),
    );
    const response = await fetch(`${url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'm', input: 'hi' }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual(body);
  });

  it('ends a cut stream cleanly, response.incomplete with no call in it', async () => {
    const { baseURL } = await setUp(
      scripted({
        kind: 'cut',
        after: 12,
        reply: {
          kind: 'tool-calls',
          text: 'Let me check.',
          calls: [{ name: 'getStatus', arguments: { id: 'A-1' } }],
        },
      }),
    );
    const client = new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0 });
    const final = await client.responses.stream({ model: 'm', input: 'hi', tools: TOOLS }).finalResponse();
    expect(final.status).toBe('incomplete');
    expect(final.output.some((item) => item.type === 'function_call')).toBe(false);
    expect(final.output_text).toBe('Let me check.');
  });
});

describe('Responses: an app that goes away', () => {
  it('lets the app go away in the middle of a stream: the provider’s request is aborted, the gateway serves on', async () => {
    const { provider, baseURL } = await setUp(() => ({ kind: 'text', text: 'word '.repeat(20_000) }));
    const client = new OpenAI({ baseURL, apiKey: 'app-key', maxRetries: 0 });
    const controller = new AbortController();
    const stream = await client.responses.create(
      { model: 'fake-model', input: 'hi', stream: true },
      { signal: controller.signal },
    );
    let seen = '';
    try {
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') seen += event.delta;
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
    const next = await client.responses.create({ model: 'fake-model', input: 'hi' });
    expect(next.output_text).toHaveLength(100_000);
  });
});

describe('Responses (previous_response_id): OpenTelemetry', () => {
  it('reports a chat span per provider call, an execute_tool span per call the app ran, and the stop', async () => {
    const sdk: OtelTestSdk = startOtelTestSdk();
    open.push({ close: () => sdk.shutdown() });
    const telemetry = otelGatewayTelemetry({ tracer: sdk.tracer, meter: sdk.meter });
    const { gateway, baseURL } = await setUp(looping(), { telemetry });
    const run = await runResponsesLoop({ baseURL, form: 'chain', run: PENDING });
    await gateway.close();
    expect(run).toMatchObject({ executions: 3, final: 'Order A-1 is still pending.' });

    await expectStoppedLoopTelemetry(sdk, { provider: 'openai', model: 'fake-model' });
  });
});
