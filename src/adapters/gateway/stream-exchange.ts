import type { ServerResponse } from 'node:http';
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
import { write } from './http-io.js';
import type { TurnReplay } from './replay-turn.js';
import { createSseParser } from './sse-events.js';
import { stopHeader, stopNote, stoppedText } from './stop-texts.js';
import type { UpstreamCall } from './upstream.js';
import type { WireAnswer, WireStreamReader } from './wire.js';

/** How reading one streamed answer ended. */
type Pumped =
  /** The provider ended its stream properly. */
  | { readonly kind: 'ended' }
  /** The stream ended before the answer did (the provider closed, went quiet, or sent what cannot be read). */
  | { readonly kind: 'cut' }
  /** The answer's calls were judged and stopped: nothing of them went to the app. */
  | { readonly kind: 'stopped' }
  /** The app went away. */
  | { readonly kind: 'gone' };

/**
 * A streamed answer: text goes to the app as it comes, the calls are held until the answer is complete and
 * judged, then released, or the stream goes on with the last answer of a stopped turn (the provider's with
 * tools off, its own calls if any held back and replaced by the gateway's text). A stream the provider cuts
 * ends cleanly (no call left half-sent). An SSE comment says a stop to whoever reads the raw stream (the
 * headers went before it was known).
 */
export async function streamAnswer(
  exchange: Exchange,
  call: UpstreamCall,
  response: ServerResponse,
  span: (end: GatewayChatEnd) => void,
): Promise<void> {
  const { context, wire } = exchange;
  const status = call.response.statusCode ?? 200;
  response.writeHead(status, downstreamHeaders(call.response.headers, { rewritten: true }));
  const options = {
    redactArguments: context.policy.redact.arguments,
    maxHeldBytes: context.maxResponseBytes,
  };
  const reader = wire.streamReader(options);
  let judged: { readonly verdict: Stop | { readonly kind: 'pass' }; readonly replay: TurnReplay } | undefined;
  const first = await pump(exchange, call, reader, response, async (answer) => {
    judged = await judge(exchange, answer);
    return judged.verdict.kind === 'pass' ? 'release' : 'stop';
  });
  const answer = reader.answer();
  switch (first.kind) {
    case 'gone':
      span({ status, error: 'aborted' });
      return;
    case 'cut': {
      await write(response, reader.cut());
      span({ status, error: call.failure()?.kind ?? 'cut' });
      // The app got no call of the cut answer: its turn ends with what it got.
      const replay = judged?.replay ?? exchange.historyReplay;
      await settle(exchange, {
        answer: { ...answer, calls: [] },
        verdict: { kind: 'pass' },
        replay,
        calls: 1,
      });
      response.end();
      return;
    }
    case 'ended':
      span(chatEnd(status, answer));
      if (judged !== undefined)
        await settle(exchange, { answer, verdict: judged.verdict, replay: judged.replay, calls: 1 });
      response.end();
      return;
    case 'stopped':
      break;
    default: {
      const never: never = first;
      return never;
    }
  }
  if (judged === undefined || judged.verdict.kind !== 'stop') return;
  const stop = judged.verdict;
  span({ ...chatEnd(status, answer), stop: stop.reason });
  await write(response, `: ${context.stopHeader}: ${stopHeader(stop, undefined)}\n\n`);
  const last = await finalStreamedAnswer(exchange, reader, response, stop);
  if (last === 'gone') return;
  await settle(exchange, {
    answer,
    verdict: stop,
    replay: judged.replay,
    calls: last.asked ? 2 : 1,
    finalUsage: last.usage,
    finalId: last.id,
    finalOwed: last.owed,
    ...(last.text === undefined ? {} : { stopText: last.text }),
  });
  response.end();
}

/** The rest of the app's stream for a stopped turn; `gone` when the app went away meanwhile. */
async function finalStreamedAnswer(
  exchange: Exchange,
  reader: WireStreamReader,
  response: ServerResponse,
  stop: Stop,
): Promise<
  | 'gone'
  | {
      readonly asked: boolean;
      readonly usage?: WireAnswer['usage'];
      readonly text?: string;
      readonly id?: string;
      readonly owed?: readonly string[];
    }
> {
  const { context, wire, request } = exchange;
  const text = stoppedText(stop, request.turn, context.policy);
  const written = async (end: WireStreamReader, asked: boolean) => {
    await write(response, end.finish(text));
    return { asked, text };
  };
  if (context.policy.onStop === 'synthesize') return written(reader, false);
  const span = startChat(exchange, 'final-answer');
  let call: UpstreamCall;
  try {
    call = await callProvider(exchange, request.toolsOffBody(exchange.historyReplay.notes, stopNote(stop)));
  } catch (error) {
    span({ error: failureName(error) });
    return exchange.signal.aborted ? 'gone' : written(reader, true);
  }
  const status = call.response.statusCode ?? 502;
  const streamed = (call.response.headers['content-type'] ?? '').includes('text/event-stream');
  if (status < 200 || status >= 300 || !streamed) {
    call.abort();
    span({ status, error: status >= 300 ? String(status) : 'unreadable' });
    return written(reader, true);
  }
  const next = wire.streamReader({
    redactArguments: context.policy.redact.arguments,
    maxHeldBytes: context.maxResponseBytes,
    after: reader,
  });
  const pumped = await pump(exchange, call, next, response, async (answer) =>
    answer.calls.length === 0 ? 'release' : 'stop',
  );
  const answer = next.answer();
  const usage = {
    ...(answer.usage === undefined ? {} : { usage: answer.usage }),
    ...(answer.id === undefined ? {} : { id: answer.id }),
  };
  switch (pumped.kind) {
    case 'gone':
      span({ status, error: 'aborted' });
      return 'gone';
    case 'ended':
      span(chatEnd(status, answer));
      return { asked: true, ...usage };
    case 'cut':
      span({ status, error: call.failure()?.kind ?? 'cut' });
      await write(response, next.cut());
      return { asked: true, ...usage };
    case 'stopped':
      // The provider asked for tools again with tools off: the gateway's text ends the answer, whose id the
      // app gets with calls it never saw.
      span({ ...chatEnd(status, answer), stop: stop.reason });
      return { ...(await written(next, true)), ...usage, owed: answer.calls.map((call) => call.id) };
    default: {
      const never: never = pumped;
      return never;
    }
  }
}

/**
 * Reads a streamed answer into the app's response through `reader`; when the answer is complete, asks
 * `decide` whether its held calls go (`release`) or the stream stops here (`stop`: the provider's call is
 * aborted, what was held is dropped).
 */
async function pump(
  exchange: Exchange,
  call: UpstreamCall,
  reader: WireStreamReader,
  response: ServerResponse,
  decide: (answer: WireAnswer) => Promise<'release' | 'stop'>,
): Promise<Pumped> {
  const parser = createSseParser(exchange.context.maxResponseBytes);
  const handle = async (event: Parameters<WireStreamReader['push']>[0]): Promise<'stop' | undefined> => {
    const step = reader.push(event);
    await write(response, step.write);
    if (!step.decide) return undefined;
    if ((await decide(reader.answer())) === 'stop') return 'stop';
    await write(response, reader.release());
    return undefined;
  };
  try {
    for await (const chunk of call.response) {
      for (const event of parser.push(chunk as Buffer)) {
        if ((await handle(event)) === 'stop') {
          call.abort();
          return { kind: 'stopped' };
        }
      }
      if (response.destroyed || exchange.signal.aborted) {
        call.abort();
        return { kind: 'gone' };
      }
    }
    // An event the stream cut off (no blank line after it) is dropped: half an event is none.
    parser.end();
  } catch {
    call.abort();
    return response.destroyed || exchange.signal.aborted ? { kind: 'gone' } : { kind: 'cut' };
  }
  if (response.destroyed || exchange.signal.aborted) return { kind: 'gone' };
  return reader.ended() && call.failure() === undefined ? { kind: 'ended' } : { kind: 'cut' };
}
