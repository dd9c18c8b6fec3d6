import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A body read whole, or why not. */
export type BodyRead =
  | { readonly kind: 'ok'; readonly body: Buffer }
  | { readonly kind: 'too-large'; readonly max: number }
  | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Reads a message's body whole, at most `max` bytes: a declared `content-length` over it is refused unread,
 * and a body that grows past it stops being read. Never rejects.
 */
export async function readBody(message: IncomingMessage, max: number): Promise<BodyRead> {
  const declared = Number(message.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return { kind: 'too-large', max };
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of message) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > max) return { kind: 'too-large', max };
      chunks.push(buffer);
    }
  } catch (error) {
    return { kind: 'failed', error };
  }
  if (!message.complete) return { kind: 'failed', error: new Error('the body ended early') };
  return { kind: 'ok', body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) };
}

/** Sends a whole response (a JSON value, or text as it is), with its length. */
export function sendBody(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: OutgoingHttpHeaders = {},
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, {
    'content-type': 'application/json',
    ...headers,
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/** Writes to a response, waiting while its buffer is full (a slow app is not buffered without bound). */
export async function write(response: ServerResponse, text: string): Promise<void> {
  if (text === '' || response.destroyed) return;
  if (response.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** Parses JSON text; undefined when it is not JSON. */
export function parseJson(text: Buffer | string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(typeof text === 'string' ? text : text.toString('utf8')) };
  } catch {
    return undefined;
  }
}
