// The gateway's OpenTelemetry (`otelGatewayTelemetry`) on a real OTel SDK (in-memory spans, metrics read on
// demand), in front of a fake OpenAI chat provider, driven by the `openai` SDK: a `chat {model}` client span
// per provider call, an `execute_tool {tool}` span per call the app ran, and the turn's metrics.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loopingModel, startFakeOpenAIChat } from '../../../test/fake-providers/openai-chat-provider.js';
import { type OtelTestSdk, startOtelTestSdk } from '../../telemetry/__fixtures__/otel-test-sdk.js';
import { otelGatewayTelemetry } from '../../telemetry/otel-gateway-telemetry.js';
import { runClientLoop } from './__fixtures__/client-loop.js';
import { expectStoppedLoopTelemetry } from './__fixtures__/expect-stopped-loop-telemetry.js';
import { createGateway } from './create-gateway.js';

// SpanKind.INTERNAL and SpanKind.CLIENT, as numbers (what a ReadableSpan holds).
const INTERNAL = 0;
const CLIENT = 2;

let sdk: OtelTestSdk;
const open: { close(): Promise<void> }[] = [];
beforeEach(() => {
  sdk = startOtelTestSdk();
});
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  await sdk.shutdown();
});

describe('otelGatewayTelemetry through the gateway', () => {
  it('reports a chat span per provider call, an execute_tool span per call the app ran, and the stop', async () => {
    const provider = await startFakeOpenAIChat({
      script: loopingModel({ tool: 'getStatus', arguments: { id: 'A-1' }, answer: 'Still pending.' }),
    });
    open.push(provider);
    const telemetry = otelGatewayTelemetry({ tracer: sdk.tracer, meter: sdk.meter });
    const gateway = createGateway({ upstream: { url: provider.url }, telemetry });
    const { url } = await gateway.listen({ port: 0 });
    const run = await runClientLoop({
      baseURL: `${url}/v1`,
      tools: ['getStatus'],
      run: () => '{"state":"PENDING","token":"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}',
      headers: { 'x-toolwarden-session': 'otel-1' },
    });
    await gateway.close();
    expect(run).toMatchObject({ executions: 3, final: 'Still pending.' });

    await expectStoppedLoopTelemetry(sdk, { provider: 'openai', model: 'fake-model' });
    // On this wire, beside what every wire leaves: the spans' names and kinds, the header's session as
    // the conversation, the final answer's finish reason, the tools' names, no secret, the round trips.
    const spans = sdk.exporter.getFinishedSpans();
    const chats = spans.filter((span) => span.name.startsWith('chat'));
    for (const span of chats) {
      expect(span.name).toBe('chat fake-model');
      expect(span.kind).toBe(CLIENT);
      expect(span.attributes['gen_ai.conversation.id']).toBe('otel-1');
    }
    expect(chats[4]?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    const tools = spans.filter((span) => span.name.startsWith('execute_tool'));
    for (const span of tools) {
      expect(span.kind).toBe(INTERNAL);
      expect(span.attributes['gen_ai.tool.name']).toBe('getStatus');
    }
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toMatch(/sk-proj/);
    const roundTrips = await sdk.metricPoints('toolwarden.run.round_trips');
    expect(roundTrips.map((point) => [point.attributes, (point.value as { sum: number }).sum])).toEqual([
      [{ 'toolwarden.run.outcome': 'stopped' }, 5],
    ]);
  });
});
