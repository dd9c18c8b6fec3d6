// The gateway in front of a fake OpenAI chat provider (127.0.0.1), driven by the real `openai` SDK in the
// loop an app runs (Spring AI's shape): loops stopped before the side effect, limits, redaction, audit,
// telemetry, plain and streamed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeChatScript,
  type FakeOpenAIChat,
  loopingModel,
  messagesOf,
  startFakeOpenAIChat,
  toolsOff,
} from '../../../test/fake-providers/openai-chat-provider.js';
import { createJsonlAuditSink } from '../../audit/jsonl-audit-sink.js';
import { reportAuditLog } from '../../report/report-audit-log.js';
import { runClientLoop } from './__fixtures__/client-loop.js';
import { memoryAuditSink, recordTelemetry } from './__fixtures__/recorders.js';
import { createGateway } from './create-gateway.js';
import type { GatewayOptions } from './gateway-options.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setUp(script: FakeChatScript, options: Omit<GatewayOptions, 'upstream'> = {}) {
  const provider = await startFakeOpenAIChat({ script });
  open.push(provider);
  const gateway = createGateway({ upstream: { url: provider.url }, ...options });
  open.push(gateway);
  const { url } = await gateway.listen({ port: 0 });
  return { provider, gateway, url, baseURL: `${url}/v1` };
}

const PENDING = () => '{"state":"PENDING"}';
const looping = () =>
  loopingModel({ tool: 'getStatus', arguments: { id: 'A-1' }, answer: 'Order A-1 is still pending.' });

describe.each([false, true])('the gateway stops a looping model (stream: %s)', (stream) => {
  it('lets the app run the call three times, withholds the fourth, and answers with the model’s own text', async () => {
    const telemetry = recordTelemetry();
    const audit = memoryAuditSink();
    const { provider, baseURL, gateway } = await setUp(looping(), { telemetry, audit });
    const direct = await runClientLoop({
      baseURL: `${provider.url}/v1`,
      tools: ['getStatus'],
      run: PENDING,
      stream,
    });
    expect(direct).toMatchObject({ rounds: 20, executions: 20, final: undefined });
    const before = provider.chatRequests().length;

    const run = await runClientLoop({ baseURL, tools: ['getStatus'], run: PENDING, stream });
    expect(run).toMatchObject({ rounds: 4, executions: 3, final: 'Order A-1 is still pending.' });
    const sent = provider.chatRequests().slice(before);
    // Four requests of the app, and the gateway's last one with tools off.
    expect(sent).toHaveLength(5);
    expect(sent.slice(0, 4).every((request) => !toolsOff(request))).toBe(true);
    const last = sent[4];
    expect((last?.body as { tool_choice?: unknown } | undefined)?.tool_choice).toBe('none');
    expect(messagesOf(last).at(-1)).toMatchObject({ role: 'system' });
    expect(String(messagesOf(last).at(-1)?.content)).toContain('No more tool calls can run');
    // The repeat before the stop carried the guard's note beside its result, as the provider read it.
    const third = messagesOf(sent[2]);
    expect(String(third.at(-1)?.content)).toContain(
      'NOTE from the runtime: getStatus was called with these same arguments 2 times',
    );
    if (!stream)
      expect(run.lastHeaders?.get('x-toolwarden-stop')).toBe(
        'LOOP_DETECTED; detector=exact-repeat; tools=getStatus; answer=model',
      );
    await gateway.close();
    open.splice(open.indexOf(gateway), 1);

    expect(telemetry.chats.map((chat) => [chat.call.purpose, chat.end?.stop])).toEqual([
      ['answer', undefined],
      ['answer', undefined],
      ['answer', undefined],
      ['answer', 'LOOP_DETECTED'],
      ['final-answer', undefined],
    ]);
    expect(telemetry.turns).toEqual([
      expect.objectContaining({ outcome: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 5, toolCalls: 3 }),
    ]);
    expect(telemetry.rounds.map((round) => round.calls.length)).toEqual([1, 1, 1]);
    const kinds = audit.records.map((record) =>
      record.kind === 'run'
        ? `run ${record.outcome} ${record.stopReason}`
        : `call ${record.outcome} ${record.code ?? ''}`.trim(),
    );
    expect(kinds).toEqual([
      'call success',
      'call success',
      'call success',
      'call denied LOOP_DETECTED',
      'run stopped LOOP_DETECTED',
    ]);
  });
});

describe('the gateway when the provider ignores tools off, or is not asked', () => {
  it('writes the final message itself when the provider asks for tools again', async () => {
    const stubborn: FakeChatScript = () => ({
      kind: 'tool-calls',
      calls: [{ name: 'getStatus', arguments: { id: 'A-1' } }],
    });
    for (const stream of [false, true]) {
      const { baseURL } = await setUp(stubborn);
      const run = await runClientLoop({ baseURL, tools: ['getStatus'], run: PENDING, stream });
      expect(run.executions).toBe(3);
      expect(run.final).toContain('I could not finish this request: it kept repeating the same steps');
      expect(run.final).toContain('Ran, effect unknown: getStatus (3 times)');
      if (!stream) expect(run.lastHeaders?.get('x-toolwarden-stop')).toContain('answer=gateway');
    }
  });

  it('asks nobody with onStop "synthesize", and says a read ran nothing that changed anything', async () => {
    const { provider, baseURL } = await setUp(looping(), {
      onStop: 'synthesize',
      tools: { getStatus: { effect: 'read' } },
    });
    const run = await runClientLoop({ baseURL, tools: ['getStatus'], run: PENDING });
    expect(run.final).toBe(
      'I could not finish this request: it kept repeating the same steps without getting any further. Nothing was changed; you can rephrase the request or ask again.',
    );
    expect(provider.chatRequests().some(toolsOff)).toBe(false);
  });
});

describe('the turn’s limits, counted from the history', () => {
  it('stops at the per-tool limit before the app runs a call past it', async () => {
    let page = 0;
    const paging: FakeChatScript = (request) =>
      toolsOff(request)
        ? { kind: 'text', text: 'Here are the pages I read.' }
        : { kind: 'tool-calls', calls: [{ name: 'readPage', arguments: { page: ++page } }] };
    const { baseURL } = await setUp(paging, { limits: { tools: { readPage: 4 } } });
    const run = await runClientLoop({
      baseURL,
      tools: ['readPage'],
      run: (_name, args) => `page ${args} of a long document`,
    });
    expect(run).toMatchObject({ executions: 4, final: 'Here are the pages I read.' });
    expect(run.lastHeaders?.get('x-toolwarden-stop')).toBe(
      'TOOL_CALL_LIMIT; scope=per-tool; tool=readPage; limit=4; answer=model',
    );
  });

  it('makes the turn’s last model call final at the round-trip ceiling', async () => {
    let n = 0;
    const distinct: FakeChatScript = (request) =>
      toolsOff(request)
        ? { kind: 'text', text: 'enough' }
        : { kind: 'tool-calls', calls: [{ name: 'step', arguments: { n: ++n } }] };
    const { baseURL } = await setUp(distinct, { limits: { roundTrips: 3 } });
    const run = await runClientLoop({ baseURL, tools: ['step'], run: (_name, args) => `done ${args}` });
    expect(run).toMatchObject({ rounds: 3, executions: 2, final: 'enough' });
  });
});

describe('redaction of tool results', () => {
  const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

  it('never lets a secret a tool returned reach the provider, and sends the same text every time', async () => {
    let calls = 0;
    const twice: FakeChatScript = (request) =>
      messagesOf(request).length >= 4 || toolsOff(request)
        ? { kind: 'text', text: 'done' }
        : { kind: 'tool-calls', calls: [{ name: 'readConfig', arguments: { n: ++calls } }] };
    const { provider, baseURL } = await setUp(twice);
    await runClientLoop({
      baseURL,
      tools: ['readConfig'],
      run: () => `{"apiKey":"${SECRET}","region":"eu"}`,
    });
    for (const request of provider.chatRequests()) expect(request.text).not.toContain(SECRET);
    const sentResult = messagesOf(provider.chatRequests().at(-1)).find((message) => message.role === 'tool');
    expect(JSON.parse(String(sentResult?.content))).toEqual({ apiKey: '[redacted:secret]', region: 'eu' });
  });
});

describe('the audit log the report reads', () => {
  it('holds the turns as runs, with their rounds and stops', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tw-gateway-'));
    try {
      const path = join(folder, 'audit.jsonl');
      const sink = createJsonlAuditSink({ path });
      const { baseURL, gateway } = await setUp(looping(), { audit: sink });
      await runClientLoop({ baseURL, tools: ['getStatus'], run: PENDING });
      await runClientLoop({
        baseURL,
        tools: ['getStatus'],
        run: PENDING,
        ask: 'and order B-2?',
        headers: { 'x-toolwarden-session': 's-2' },
      });
      await gateway.close();
      open.splice(open.indexOf(gateway), 1);
      await sink.close();
      const report = await reportAuditLog(path);
      expect(report.records).toMatchObject({ runs: 2, calls: 8, skipped: 0 });
      expect(report.rounds.histogram).toEqual([{ rounds: 5, runs: 2 }]);
      expect(report.stops.byReason).toEqual([{ reason: 'LOOP_DETECTED', runs: 2 }]);
      expect(report.loopRefusals).toEqual([{ tool: 'getStatus', count: 2 }]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
