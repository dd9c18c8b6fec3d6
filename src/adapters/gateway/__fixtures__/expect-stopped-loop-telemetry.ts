import { expect } from 'vitest';
import type { OtelTestSdk } from '../../../telemetry/__fixtures__/otel-test-sdk.js';

/**
 * What a guarded conversation that the gateway stopped as a loop after three tool rounds leaves in
 * OpenTelemetry, on any wire: a chat span per provider call (four answers, then the final answer) in one
 * conversation, the stop on the fourth, an `execute_tool` span per call the app ran, no content on any
 * span, and one stop counted.
 */
export async function expectStoppedLoopTelemetry(
  sdk: OtelTestSdk,
  wire: { readonly provider: string; readonly model: string },
): Promise<void> {
  const spans = sdk.exporter.getFinishedSpans();
  const chats = spans.filter((span) => span.name.startsWith('chat'));
  expect(chats.map((span) => span.attributes['toolwarden.gateway.purpose'])).toEqual([
    'answer',
    'answer',
    'answer',
    'answer',
    'final-answer',
  ]);
  const conversation = chats[0]?.attributes['gen_ai.conversation.id'];
  expect(conversation).toEqual(expect.any(String));
  for (const span of chats)
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': wire.provider,
      'gen_ai.request.model': wire.model,
      'gen_ai.conversation.id': conversation,
      'http.response.status_code': 200,
    });
  expect(chats[3]?.attributes['toolwarden.stop.reason']).toBe('LOOP_DETECTED');
  const tools = spans.filter((span) => span.name.startsWith('execute_tool'));
  expect(tools.map((span) => [span.name, span.attributes['gen_ai.conversation.id']])).toEqual(
    Array.from({ length: 3 }, () => ['execute_tool getStatus', conversation]),
  );
  // Never content: no argument or result on any span.
  expect(JSON.stringify(spans.map((span) => span.attributes))).not.toMatch(/PENDING|A-1/);
  const stops = await sdk.metricPoints('toolwarden.run.stops');
  expect(stops.map((point) => [point.attributes, point.value])).toEqual([
    [{ 'toolwarden.stop.reason': 'LOOP_DETECTED' }, 1],
  ]);
}
