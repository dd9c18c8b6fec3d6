// A local HTTP server for tests that speaks a provider's wire format from scripted answers kept as files.
// It listens on 127.0.0.1, port 0 (no network), records every request, and answers each in turn:
//   { fixture: 'tool-call.json' }                       the file's JSON, status 200 (or `status`)
//   { fixture: 'x.sse' }                                the file as server-sent events, one event (a block
//                                                        ended by a blank line) per write; a `: hang` line
//                                                        stops writing and leaves the stream open, a
//                                                        `: drop` line destroys the connection
//   { fixture: 'rate-limited.json', status: 429, headers: { 'retry-after': '1' } }
//   { hang: true }                                      never answers, until the client goes away
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';

export type FakeAnswer =
  | {
      readonly fixture: string;
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly hang: true };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** The body as it came (UTF-8 text). */
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly body: unknown;
}

export interface FakeServer {
  /** The base URL a provider takes: `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** Resolves when a client closes a request the server had not finished answering (an abort). */
  readonly clientClosed: Promise<void>;
  close(): Promise<void>;
}

export interface FakeServerOptions {
  /** The one route answered (`/v1/chat/completions`); anything else is a 404. */
  readonly path: string;
  /** The folder of the fixture files. */
  readonly fixtures: URL;
  readonly answers: readonly FakeAnswer[];
  /** Called as each request has been read, before it is answered. */
  readonly onRequest?: (request: RecordedRequest, index: number) => void;
}

export async function startFakeServer(options: FakeServerOptions): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  let onClientClosed = () => {};
  const clientClosed = new Promise<void>((resolve) => {
    onClientClosed = resolve;
  });
  const server = createServer((request, response) => {
    response.on('close', () => {
      if (!response.writableFinished) onClientClosed();
    });
    void handle(request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const index = requests.length;
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      text,
      body: parseJson(text),
    };
    requests.push(recorded);
    options.onRequest?.(recorded, index);
    if (request.method !== 'POST' || request.url !== options.path) {
      return sendJson(response, 404, { error: { message: `no route ${request.method} ${request.url}` } });
    }
    const answer = options.answers[index];
    if (answer === undefined) {
      return sendJson(response, 500, { error: { message: `the script has no answer ${index + 1}` } });
    }
    if ('hang' in answer) return; // The response stays open until the client closes it.
    const body = readFileSync(new URL(answer.fixture, options.fixtures), 'utf8');
    if (answer.fixture.endsWith('.sse')) return sendEvents(response, body, answer);
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    response.end(body);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    clientClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `messages` of the server's nth request body (both wire formats have them). */
export function sentMessages(server: FakeServer, index: number): unknown {
  const body = server.requests[index]?.body;
  return typeof body === 'object' && body !== null ? (body as { messages?: unknown }).messages : undefined;
}

async function sendEvents(
  response: ServerResponse,
  body: string,
  answer: { readonly status?: number; readonly headers?: Readonly<Record<string, string>> },
): Promise<void> {
  response.writeHead(answer.status ?? 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...answer.headers,
  });
  for (const event of body.split(/\n\n+/)) {
    if (event.trim() === '') continue;
    if (/^: hang$/m.test(event)) return;
    if (/^: drop$/m.test(event)) {
      response.destroy();
      return;
    }
    response.write(`${event}\n\n`);
    await nextTurn();
    if (response.destroyed) return;
  }
  response.end();
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
