// A fake OpenAI chat completions provider on 127.0.0.1 (port 0, no network) for tests: it speaks the real
// wire (`POST /v1/chat/completions`, a JSON completion or, when the request says `stream: true`, server-sent
// events with tool-call arguments in fragments and parallel calls interleaved), answers `GET /v1/models`,
// records every request, and asks a script for each answer:
//
//   const provider = await startFakeOpenAIChat({ script: loopingModel({ tool: 'getStatus', arguments: { id: 'A-1' } }) });
//   new OpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'test' });   // Spring AI 2.0.1 too: base-url = `${provider.url}/v1`
//   ...
//   provider.requests[0].body;  await provider.close();
//
// A script is a function of the request (its parsed body, its index) returning the next reply: text, tool
// calls, an error status with its body and headers (429, 5xx), raw bytes (garbage), a stream or a body cut
// off mid-way, or no answer at all (`hang`, until the client goes away).
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson, sendFrames, sendJson } from './fake-http.js';

/** One request the provider received. */
export interface FakeChatRequest {
  /** 0 for the first request the provider received (any path). */
  readonly index: number;
  readonly method: string;
  /** The path and query, as sent (`/v1/chat/completions`). */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body as sent (UTF-8). */
  readonly text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly body: unknown;
}

/** A tool call the fake model asks for; `arguments` as JSON text, or a value to encode. */
export interface FakeToolCall {
  readonly name: string;
  readonly arguments: string | Readonly<Record<string, unknown>>;
  /** Default: `call_<request>_<position>`, unique per provider. */
  readonly id?: string;
}

/** The provider's next answer. */
export type FakeChatReply =
  /** An assistant message with text, `finish_reason: "stop"`. */
  | { readonly kind: 'text'; readonly text: string }
  /** An assistant message asking for tool calls (with optional text before them), `finish_reason: "tool_calls"`. */
  | { readonly kind: 'tool-calls'; readonly calls: readonly FakeToolCall[]; readonly text?: string }
  /** An error status with an OpenAI error body (or `body`, as JSON) and headers (`retry-after`). */
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly body?: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Exactly these bytes (garbage, a wrong content type), status 200 unless told. */
  | {
      readonly kind: 'raw';
      readonly body: string;
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /**
   * The answer `reply` would be, cut off: streamed, after `after` events (the connection is then
   * destroyed); not streamed, after half of the body.
   */
  | {
      readonly kind: 'cut';
      readonly reply: Extract<FakeChatReply, { kind: 'text' | 'tool-calls' }>;
      readonly after: number;
    }
  /** No answer: the request stays open until the client closes it. */
  | { readonly kind: 'hang' };

/** What answers each chat completions request (not `GET /v1/models`, which the provider answers itself). */
export type FakeChatScript = (request: FakeChatRequest) => FakeChatReply;

/** `startFakeOpenAIChat`'s options. */
export interface FakeOpenAIChatOptions {
  readonly script: FakeChatScript;
  /** Characters of a call's arguments per streamed fragment (default 7). */
  readonly fragment?: number;
  /** The `model` the answers name (default: the request's, else `fake-model`). */
  readonly model?: string;
}

/** A running fake provider. */
export interface FakeOpenAIChat {
  /** `http://127.0.0.1:PORT`; clients take `${url}/v1` (the `openai` SDKs, and Spring AI 2.0.1's `base-url`). */
  readonly url: string;
  /** Every request received, in order (chat completions and any other path). */
  readonly requests: FakeChatRequest[];
  /** The chat completions requests only. */
  chatRequests(): FakeChatRequest[];
  /** How many requests the clients closed before the provider had finished answering. */
  aborted(): number;
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';

/** Starts the provider on 127.0.0.1, port 0. */
export async function startFakeOpenAIChat(options: FakeOpenAIChatOptions): Promise<FakeOpenAIChat> {
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
    if (request.method === 'GET' && recorded.path === '/v1/models') {
      return sendJson(response, 200, {
        object: 'list',
        data: [{ id: options.model ?? 'fake-model', object: 'model', created: 0, owned_by: 'fake' }],
      });
    }
    if (request.method !== 'POST' || recorded.path !== CHAT_PATH) {
      return sendJson(response, 404, openAiError(`no route ${request.method} ${recorded.path}`, 'not_found'));
    }
    const reply = options.script(recorded);
    const context = answerContext(recorded, options);
    switch (reply.kind) {
      case 'hang':
        return;
      case 'error':
        return sendJson(
          response,
          reply.status,
          reply.body ?? openAiError(`fake error ${reply.status}`, 'fake_error'),
          reply.headers,
        );
      case 'raw':
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(reply.body);
        return;
      case 'text':
      case 'tool-calls':
        if (context.stream)
          return sendFrames(response, framesOf(chunksOf(reply, context)), Number.POSITIVE_INFINITY);
        return sendJson(response, 200, completionOf(reply, context));
      case 'cut': {
        if (context.stream)
          return sendFrames(response, framesOf(chunksOf(reply.reply, context)), reply.after);
        const body = JSON.stringify(completionOf(reply.reply, context));
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
    chatRequests: () => requests.filter((request) => request.path === CHAT_PATH),
    aborted: () => aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A model stuck in a loop: it asks for the same call every time it may call tools, and answers `answer`
 * once it may not (the request says `tool_choice: "none"` or offers no tools).
 */
export function loopingModel(options: {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly answer?: string;
  /** Parallel copies of the call per answer (default 1). */
  readonly parallel?: number;
}): FakeChatScript {
  const answer = options.answer ?? 'I could not get further; here is what I found.';
  return (request) =>
    toolsOff(request)
      ? { kind: 'text', text: answer }
      : {
          kind: 'tool-calls',
          calls: Array.from({ length: options.parallel ?? 1 }, () => ({
            name: options.tool,
            arguments: options.arguments,
          })),
        };
}

/** The replies in order, one per chat request; past the end, the last again. */
export function scripted(...replies: readonly FakeChatReply[]): FakeChatScript {
  let next = 0;
  return () => {
    const reply = replies[Math.min(next, replies.length - 1)];
    next++;
    if (reply === undefined) throw new Error('scripted() needs at least one reply');
    return reply;
  };
}

/** Whether a request leaves the model no tools: `tool_choice: "none"`, or no `tools`. */
export function toolsOff(request: FakeChatRequest): boolean {
  const body = request.body as { tools?: unknown; tool_choice?: unknown } | undefined;
  return body?.tool_choice === 'none' || !Array.isArray(body?.tools) || body.tools.length === 0;
}

/** The `messages` of a recorded request (an empty list when there are none). */
export function messagesOf(request: FakeChatRequest | undefined): readonly Record<string, unknown>[] {
  const messages = (request?.body as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? (messages as Record<string, unknown>[]) : [];
}

interface AnswerContext {
  readonly id: string;
  readonly index: number;
  readonly model: string;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  readonly fragment: number;
}

function answerContext(request: FakeChatRequest, options: FakeOpenAIChatOptions): AnswerContext {
  const body = (request.body ?? {}) as {
    model?: unknown;
    stream?: unknown;
    stream_options?: { include_usage?: unknown };
  };
  return {
    id: `chatcmpl-fake-${request.index}`,
    index: request.index,
    model: options.model ?? (typeof body.model === 'string' ? body.model : 'fake-model'),
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
    fragment: Math.max(1, options.fragment ?? 7),
  };
}

interface ResolvedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

function callsOf(reply: Extract<FakeChatReply, { kind: 'text' | 'tool-calls' }>, context: AnswerContext) {
  if (reply.kind === 'text') return [];
  return reply.calls.map(
    (call, position): ResolvedCall => ({
      id: call.id ?? `call_${context.index}_${position}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }),
  );
}

function usageOf(reply: Extract<FakeChatReply, { kind: 'text' | 'tool-calls' }>) {
  const completion = 5 + (reply.kind === 'text' ? reply.text.length : reply.calls.length * 10);
  return { prompt_tokens: 20, completion_tokens: completion, total_tokens: 20 + completion };
}

function completionOf(
  reply: Extract<FakeChatReply, { kind: 'text' | 'tool-calls' }>,
  context: AnswerContext,
) {
  const calls = callsOf(reply, context);
  const message =
    reply.kind === 'text'
      ? { role: 'assistant', content: reply.text, refusal: null }
      : {
          role: 'assistant',
          content: reply.text ?? null,
          refusal: null,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        };
  return {
    id: context.id,
    object: 'chat.completion',
    created: 1_764_547_300,
    model: context.model,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls' },
    ],
    usage: usageOf(reply),
  };
}

/** The answer as chunks: role, text in pieces, each call's first chunk, argument fragments interleaved, finish, usage. */
function chunksOf(reply: Extract<FakeChatReply, { kind: 'text' | 'tool-calls' }>, context: AnswerContext) {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: context.id,
    object: 'chat.completion.chunk',
    created: 1_764_547_300,
    model: context.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  const text = reply.kind === 'text' ? reply.text : (reply.text ?? '');
  for (const piece of text.match(/[\s\S]{1,5}/g) ?? []) chunks.push(chunk({ content: piece }));
  const calls = callsOf(reply, context);
  calls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
  });
  const pieces = calls.map(
    (call) => call.arguments.match(new RegExp(`[\\s\\S]{1,${context.fragment}}`, 'g')) ?? [],
  );
  const longest = Math.max(0, ...pieces.map((list) => list.length));
  for (let at = 0; at < longest; at++) {
    pieces.forEach((list, index) => {
      const piece = list[at];
      if (piece !== undefined)
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  chunks.push(chunk({}, reply.kind === 'text' ? 'stop' : 'tool_calls'));
  if (context.includeUsage) {
    chunks.push({
      id: context.id,
      object: 'chat.completion.chunk',
      created: 1_764_547_300,
      model: context.model,
      choices: [],
      usage: usageOf(reply),
    });
  }
  return [...chunks.map((value) => JSON.stringify(value)), '[DONE]'];
}

/** Each chunk as a `data:` frame. */
function framesOf(chunks: readonly string[]): string[] {
  return chunks.map((data) => `data: ${data}\n\n`);
}

function openAiError(message: string, code: string) {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}
