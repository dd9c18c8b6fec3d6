import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A body read whole, or why not. */
export type BodyRead =
  | { readonly kind: 'ok'; readonly body: Buffer }
  | { readonly kind: 'too-large'; readonly max: number }
  | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Reads a message's body whole, at most `max` bytes: a declared `content-length` over it is refused unread,
 * and a body that grows past it stops being read (the message is destroyed). Never rejects. Plain listeners,
 * not `for await`: an async iterator costs more per body than the whole rest of reading a small one.
 */
export function readBody(message: IncomingMessage, max: number): Promise<BodyRead> {
  const declared = Number(message.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ kind: 'too-large', max });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (read: BodyRead) => {
      message.off('data', onData);
      message.off('end', onEnd);
      message.off('error', onError);
      message.off('close', onClose);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) {
        chunks.push(chunk);
        return;
      }
      done({ kind: 'too-large', max });
      message.destroy();
    };
    const onEnd = () => {
      if (!message.complete) done({ kind: 'failed', error: new Error('the body ended early') });
      else
        done({ kind: 'ok', body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    };
    const onError = (error: unknown) => done({ kind: 'failed', error });
    const onClose = () => done({ kind: 'failed', error: new Error('the body ended early') });
    message.on('data', onData);
    message.on('end', onEnd);
    message.on('error', onError);
    message.on('close', onClose);
  });
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
