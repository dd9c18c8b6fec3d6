import type { ServerResponse } from 'node:http';
import type { TokenUsage } from '../../core/model.js';
import type { GatewayChatEnd } from '../../telemetry/gateway-telemetry.js';
import {
  callProvider,
  chatEnd,
  type Exchange,
  failureName,
  judge,
  type Stop,
  settle,
  startChat,
} from './exchange.js';
import { downstreamHeaders } from './forward-headers.js';
import { parseJson, readBody, sendBody } from './http-io.js';
import { sendUpstreamError } from './pass-through.js';
import { stopHeader, stopNote, stoppedText } from './stop-texts.js';
import type { UpstreamCall } from './upstream.js';

/** A whole answer: passed as it came, or, for a stopped turn, the last answer the gateway got or wrote. */
export async function plainAnswer(
  exchange: Exchange,
  call: UpstreamCall,
  response: ServerResponse,
  span: (end: GatewayChatEnd) => void,
): Promise<void> {
  const { context, wire } = exchange;
  const upstream = call.response;
  const status = upstream.statusCode ?? 502;
  const read = await readBody(upstream, context.maxResponseBytes);
  if (read.kind !== 'ok') {
    const failure = call.failure();
    span({ status, error: failure?.kind ?? (read.kind === 'too-large' ? 'too-large' : 'connection') });
    if (read.kind === 'too-large') {
      call.abort();
      sendBody(
        response,
        502,
        JSON.stringify(
          wire.errorBody({
            status: 502,
            code: 'upstream_too_large',
            message: `the answer is over ${read.max} bytes`,
          }),
        ),
      );
      return;
    }
    sendUpstreamError(response, failure ?? read.error, wire.errorBody);
    return;
  }
  const asIs = () =>
    sendBody(response, status, read.body, downstreamHeaders(upstream.headers, { rewritten: false }));
  // The provider's own errors, and answers the wire cannot read, reach the app unchanged.
  const json = status >= 200 && status < 300 ? parseJson(read.body) : undefined;
  const answer = json === undefined ? undefined : wire.readAnswer(json.value);
  if (json === undefined || answer === undefined) {
    span(status >= 300 ? { status, error: String(status) } : { status });
    asIs();
    return;
  }
  const { verdict, replay } = await judge(exchange, answer);
  if (verdict.kind === 'pass') {
    span(chatEnd(status, answer));
    await settle(exchange, { answer, verdict, replay, calls: 1 });
    const redacted = context.policy.redact.arguments ? wire.redactAnswer(json.value) : undefined;
    if (redacted === undefined) asIs();
    else
      sendBody(
        response,
        status,
        JSON.stringify(redacted),
        downstreamHeaders(upstream.headers, { rewritten: true }),
      );
    return;
  }
  span({ ...chatEnd(status, answer), stop: verdict.reason });
  const final = await finalPlainAnswer(exchange, verdict);
  const text = 'text' in final.last ? final.last.text : undefined;
  await settle(exchange, {
    answer,
    verdict,
    replay,
    calls: final.asked ? 2 : 1,
    finalUsage: final.usage,
    stopText: text,
    finalId: final.id,
  });
  sendBody(response, status, JSON.stringify(wire.stoppedAnswer(json.value, final.last)), {
    ...downstreamHeaders(upstream.headers, { rewritten: true }),
    [context.stopHeader]: final.header,
  });
}

/** The last answer of a stopped turn, not streamed: the provider's with tools off, else the gateway's text. */
async function finalPlainAnswer(
  exchange: Exchange,
  stop: Stop,
): Promise<{
  readonly last: { readonly answer: unknown } | { readonly text: string };
  readonly header: string;
  readonly asked: boolean;
  readonly usage?: TokenUsage;
  readonly id?: string;
}> {
  const { context, wire, request } = exchange;
  const written = () => ({ text: stoppedText(stop, request.turn, context.policy) });
  if (context.policy.onStop === 'synthesize')
    return { last: written(), header: stopHeader(stop, 'gateway'), asked: false };
  const span = startChat(exchange, 'final-answer');
  try {
    const call = await callProvider(
      exchange,
      request.toolsOffBody(exchange.historyReplay.notes, stopNote(stop)),
    );
    const status = call.response.statusCode ?? 502;
    const read = await readBody(call.response, context.maxResponseBytes);
    const json = read.kind === 'ok' && status >= 200 && status < 300 ? parseJson(read.body) : undefined;
    const answer = json === undefined ? undefined : wire.readAnswer(json.value);
    if (
      json !== undefined &&
      answer !== undefined &&
      answer.calls.length === 0 &&
      answer.text.trim() !== ''
    ) {
      span(chatEnd(status, answer));
      const last = { answer: json.value };
      return {
        last,
        header: stopHeader(stop, 'model'),
        asked: true,
        ...usageField(answer.usage),
        ...(answer.id === undefined ? {} : { id: answer.id }),
      };
    }
    span({
      status,
      ...(answer === undefined ? { error: 'unreadable' } : { ...chatEnd(status, answer), stop: stop.reason }),
    });
    return {
      last: written(),
      header: stopHeader(stop, 'gateway'),
      asked: true,
      ...usageField(answer?.usage),
    };
  } catch (error) {
    span({ error: failureName(error) });
    return { last: written(), header: stopHeader(stop, 'gateway'), asked: true };
  }
}

function usageField(usage: TokenUsage | undefined): { usage?: TokenUsage } {
  return usage === undefined ? {} : { usage };
}
