// A fake OpenAI Responses provider on 127.0.0.1 (port 0, no network) for tests: it speaks the real wire
// (`POST /v1/responses`, a JSON response or, with `stream: true`, the named SSE events `response.created`,
// `response.output_item.added`/`done`, `response.function_call_arguments.delta`/`done`,
// `response.output_text.delta`, `response.completed`), records every request, and asks a script for each
// answer, as the OpenAI chat one. It keeps each response as the real API does with `store`: a request whose
// `previous_response_id` names a response with a `function_call` its `input` does not answer is refused (400,
// "No tool output found for function call …"), and an unknown id is a 404.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson, sendFrames, sendJson } from './fake-http.js';
import type { FakeChatReply, FakeChatRequest, FakeChatScript } from './openai-chat-provider.js';

export interface FakeResponsesOptions {
  readonly script: FakeChatScript;
  /** Characters of a call's arguments per streamed fragment (default 7). */
  readonly fragment?: number;
}

export interface FakeResponses {
  /** `http://127.0.0.1:PORT`; the `openai` SDK takes `${url}/v1`. */
  readonly url: string;
  readonly requests: FakeChatRequest[];
  /** The `/v1/responses` requests only. */
  responseRequests(): FakeChatRequest[];
  /** How many requests the clients closed before the provider had finished answering. */
  aborted(): number;
  close(): Promise<void>;
}

const PATH = '/v1/responses';

export async function startFakeResponses(options: FakeResponsesOptions): Promise<FakeResponses> {
  const requests: FakeChatRequest[] = [];
  /** The calls each response asked for, by its id. */
  const kept = new Map<string, readonly string[]>();
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
    if (request.method !== 'POST' || recorded.path !== PATH)
      return sendJson(response, 404, openAiError(`no route ${recorded.path}`, 'not_found'));
    const body = (recorded.body ?? {}) as {
      previous_response_id?: unknown;
      input?: unknown;
      stream?: unknown;
      model?: unknown;
    };
    if (typeof body.previous_response_id === 'string') {
      const pending = kept.get(body.previous_response_id);
      if (pending === undefined)
        return sendJson(
          response,
          404,
          openAiError(
            `Previous response with id '${body.previous_response_id}' not found.`,
            'previous_response_not_found',
          ),
        );
      const answered = new Set(
        (Array.isArray(body.input) ? body.input : [])
          .filter((item) => (item as { type?: unknown }).type === 'function_call_output')
          .map((item) => (item as { call_id?: unknown }).call_id),
      );
      const missing = pending.find((id) => !answered.has(id));
      if (missing !== undefined)
        return sendJson(
          response,
          400,
          openAiError(`No tool output found for function call ${missing}.`, null),
        );
    }
    const reply = options.script(recorded);
    const context: Context = {
      id: `resp_fake_${recorded.index}`,
      index: recorded.index,
      model: typeof body.model === 'string' ? body.model : 'fake-model',
      fragment: Math.max(1, options.fragment ?? 7),
    };
    const remember = (answer: Answer) =>
      kept.set(
        context.id,
        callsOf(answer, context).map((call) => call.call_id),
      );
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
        remember(reply);
        if (body.stream === true)
          return sendFrames(response, framesOf(reply, context), Number.POSITIVE_INFINITY);
        return sendJson(response, 200, responseOf(reply, context));
      case 'cut': {
        if (body.stream === true) return sendFrames(response, framesOf(reply.reply, context), reply.after);
        const json = JSON.stringify(responseOf(reply.reply, context));
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
        response.write(json.slice(0, Math.floor(json.length / 2)));
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
    responseRequests: () => requests.filter((request) => request.path === PATH),
    aborted: () => aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether a request leaves the model no tools: `tool_choice: "none"`, or no `tools`. */
export function responsesToolsOff(request: FakeChatRequest): boolean {
  const body = request.body as { tools?: unknown; tool_choice?: unknown } | undefined;
  return body?.tool_choice === 'none' || !Array.isArray(body?.tools) || body.tools.length === 0;
}

/** A model that asks for the same call whenever it may call tools, and answers `answer` once it may not. */
export function loopingResponsesModel(options: {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly answer?: string;
}): FakeChatScript {
  const answer = options.answer ?? 'I could not get further; here is what I found.';
  return (request) =>
    responsesToolsOff(request)
      ? { kind: 'text', text: answer }
      : { kind: 'tool-calls', calls: [{ name: options.tool, arguments: options.arguments }] };
}

interface Context {
  readonly id: string;
  readonly index: number;
  readonly model: string;
  readonly fragment: number;
}

type Answer = Extract<FakeChatReply, { kind: 'text' | 'tool-calls' }>;

function callsOf(reply: Answer, context: Context) {
  if (reply.kind === 'text') return [];
  return reply.calls.map((call, position) => ({
    type: 'function_call',
    id: `fc_${context.index}_${position}`,
    call_id: call.id ?? `call_${context.index}_${position}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    status: 'completed',
  }));
}

function outputOf(reply: Answer, context: Context): Record<string, unknown>[] {
  const text = reply.kind === 'text' ? reply.text : (reply.text ?? '');
  const message =
    text === ''
      ? []
      : [
          {
            type: 'message',
            id: `msg_${context.index}`,
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
          },
        ];
  return [...message, ...callsOf(reply, context)];
}

function responseOf(reply: Answer, context: Context) {
  const output = 5 + (reply.kind === 'text' ? reply.text.length : reply.calls.length * 10);
  return {
    id: context.id,
    object: 'response',
    created_at: 1_764_547_300,
    status: 'completed',
    model: context.model,
    output: outputOf(reply, context),
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: { input_tokens: 20, output_tokens: output, total_tokens: 20 + output },
  };
}

function eventsOf(reply: Answer, context: Context): Record<string, unknown>[] {
  const whole = responseOf(reply, context);
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: { ...whole, status: 'in_progress', output: [], usage: null } },
    { type: 'response.in_progress', response: { ...whole, status: 'in_progress', output: [], usage: null } },
  ];
  whole.output.forEach((item, index) => {
    if (item.type === 'message') {
      const part = (item.content as { text: string }[])[0] as { text: string };
      const at = { item_id: item.id, output_index: index, content_index: 0 };
      events.push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      events.push({ type: 'response.content_part.added', ...at, part: { ...part, text: '' } });
      for (const piece of part.text.match(/[\s\S]{1,5}/g) ?? [])
        events.push({ type: 'response.output_text.delta', ...at, delta: piece, logprobs: [] });
      events.push({ type: 'response.output_text.done', ...at, text: part.text, logprobs: [] });
      events.push({ type: 'response.content_part.done', ...at, part });
    } else {
      events.push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      const args = String(item.arguments);
      for (const piece of args.match(new RegExp(`[\\s\\S]{1,${context.fragment}}`, 'g')) ?? [])
        events.push({
          type: 'response.function_call_arguments.delta',
          item_id: item.id,
          output_index: index,
          delta: piece,
        });
      events.push({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index: index,
        arguments: args,
      });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({ type: 'response.completed', response: whole });
  return events.map((event, sequence) => ({ ...event, sequence_number: sequence }));
}

/** The answer's events as SSE frames, each named by its type. */
function framesOf(reply: Answer, context: Context): string[] {
  return eventsOf(reply, context).map(
    (event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`,
  );
}

function openAiError(message: string, code: string | null) {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}
