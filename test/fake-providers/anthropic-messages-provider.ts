// A fake Anthropic Messages provider on 127.0.0.1 (port 0, no network) for tests: it speaks the real wire
// (`POST /v1/messages`, a JSON message or, when the request says `stream: true`, the named SSE events
// `message_start`, `content_block_start`/`delta`/`stop` with `input_json_delta` fragments, `message_delta`,
// `message_stop`, and a `ping`), records every request, and asks a script for each answer, as the OpenAI one:
//
//   const provider = await startFakeAnthropic({ script: loopingAnthropicModel({ tool: 'getStatus', arguments: { id: 'A-1' } }) });
//   new Anthropic({ baseURL: provider.url, apiKey: 'test' });
//
// The replies are the OpenAI fake's (`FakeChatReply`): text, tool calls (parallel, as several `tool_use`
// blocks), an error with its status, body and headers, raw bytes, a cut answer, or none.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson, sendFrames, sendJson } from './fake-http.js';
import type { FakeChatReply, FakeChatRequest, FakeChatScript } from './openai-chat-provider.js';

/** `startFakeAnthropic`'s options. */
export interface FakeAnthropicOptions {
  readonly script: FakeChatScript;
  /** Characters of a call's input JSON per streamed fragment (default 7). */
  readonly fragment?: number;
}

/** A running fake provider. */
export interface FakeAnthropic {
  /** `http://127.0.0.1:PORT`: the Anthropic SDK's `baseURL`; the AI SDK's is `${url}/v1`. */
  readonly url: string;
  readonly requests: FakeChatRequest[];
  /** The `/v1/messages` requests only. */
  messageRequests(): FakeChatRequest[];
  /** How many requests the clients closed before the provider had finished answering. */
  aborted(): number;
  close(): Promise<void>;
}

const PATH = '/v1/messages';

export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const requests: FakeChatRequest[] = [];
  let aborted = 0;
  const server = createServer((request, response) => {
    response.on('close', () => {
      if (!response.writableFinished) aborted++;
    });
    handle(request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const recorded: FakeChatRequest = {
      index: requests.length,
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      text,
      body: parseJson(text),
    };
    requests.push(recorded);
    if (request.method !== 'POST' || recorded.path.split('?')[0] !== PATH)
      return sendJson(response, 404, anthropicError('not_found_error', `no route ${recorded.path}`));
    const reply = options.script(recorded);
    const stream = (recorded.body as { stream?: unknown } | undefined)?.stream === true;
    const context = {
      id: `msg_fake_${recorded.index}`,
      index: recorded.index,
      model: String((recorded.body as { model?: unknown } | undefined)?.model ?? 'fake-claude'),
      fragment: Math.max(1, options.fragment ?? 7),
    };
    switch (reply.kind) {
      case 'hang':
        return;
      case 'error':
        return sendJson(
          response,
          reply.status,
          reply.body ?? anthropicError('rate_limit_error', `fake error ${reply.status}`),
          reply.headers,
        );
      case 'raw':
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(reply.body);
        return;
      case 'text':
      case 'tool-calls':
        if (stream) return sendFrames(response, framesOf(reply, context), Number.POSITIVE_INFINITY);
        return sendJson(response, 200, messageOf(reply, context));
      case 'cut': {
        if (stream) return sendFrames(response, framesOf(reply.reply, context), reply.after);
        const body = JSON.stringify(messageOf(reply.reply, context));
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        response.write(body.slice(0, Math.floor(body.length / 2)));
        await new Promise((resolve) => setTimeout(resolve, 5));
        response.destroy();
        return;
      }
      default: {
        const never: never = reply;
        return never;
      }
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messageRequests: () => requests.filter((request) => request.path.split('?')[0] === PATH),
    aborted: () => aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether a request leaves the model no tools: `tool_choice: {type: 'none'}`, or no `tools`. */
export function anthropicToolsOff(request: FakeChatRequest): boolean {
  const body = request.body as { tools?: unknown; tool_choice?: { type?: unknown } } | undefined;
  return body?.tool_choice?.type === 'none' || !Array.isArray(body?.tools) || body.tools.length === 0;
}

/** A model that asks for the same call whenever it may call tools, and answers `answer` once it may not. */
export function loopingAnthropicModel(options: {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly answer?: string;
}): FakeChatScript {
  const answer = options.answer ?? 'I could not get further; here is what I found.';
  return (request) =>
    anthropicToolsOff(request)
      ? { kind: 'text', text: answer }
      : { kind: 'tool-calls', calls: [{ name: options.tool, arguments: options.arguments }] };
}

/** The `messages` of a recorded request. */
export function anthropicMessagesOf(
  request: FakeChatRequest | undefined,
): readonly Record<string, unknown>[] {
  const messages = (request?.body as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? (messages as Record<string, unknown>[]) : [];
}

interface Context {
  readonly id: string;
  readonly index: number;
  readonly model: string;
  readonly fragment: number;
}

type Answer = Extract<FakeChatReply, { kind: 'text' | 'tool-calls' }>;

function blocksOf(reply: Answer, context: Context) {
  const text = reply.kind === 'text' ? reply.text : (reply.text ?? '');
  const blocks: Record<string, unknown>[] = text === '' ? [] : [{ type: 'text', text }];
  if (reply.kind === 'tool-calls')
    reply.calls.forEach((call, position) => {
      blocks.push({
        type: 'tool_use',
        id: call.id ?? `toolu_${context.index}_${position}`,
        name: call.name,
        input: typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments,
      });
    });
  return blocks;
}

function usageOf(reply: Answer) {
  return {
    input_tokens: 20,
    output_tokens: 5 + (reply.kind === 'text' ? reply.text.length : reply.calls.length * 10),
  };
}

function messageOf(reply: Answer, context: Context) {
  return {
    id: context.id,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: blocksOf(reply, context),
    stop_reason: reply.kind === 'text' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: usageOf(reply),
  };
}

/** The events: start, a ping, each block (text in pieces, a call's input in fragments), delta, stop. */
function eventsOf(reply: Answer, context: Context): [string, unknown][] {
  const events: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          ...messageOf(reply, context),
          content: [],
          stop_reason: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      },
    ],
    ['ping', { type: 'ping' }],
  ];
  blocksOf(reply, context).forEach((block, index) => {
    if (block.type === 'text') {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ]);
      for (const piece of String(block.text).match(/[\s\S]{1,5}/g) ?? [])
        events.push([
          'content_block_delta',
          { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
        ]);
    } else {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { ...block, input: {} } },
      ]);
      const json = JSON.stringify(block.input);
      for (const piece of json.match(new RegExp(`[\\s\\S]{1,${context.fragment}}`, 'g')) ?? [])
        events.push([
          'content_block_delta',
          { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
        ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: reply.kind === 'text' ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: usageOf(reply).output_tokens },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

/** The answer's events as SSE frames, each named by its type. */
function framesOf(reply: Answer, context: Context): string[] {
  return eventsOf(reply, context).map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}

function anthropicError(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}
