import type { ServerResponse } from 'node:http';

/**
 * Writes each SSE frame (its text, `data: ...\n\n` or `event: ...\ndata: ...\n\n`) in a write of its own;
 * after `after` frames, destroys the connection (a cut stream).
 */
export async function sendFrames(
  response: ServerResponse,
  frames: readonly string[],
  after: number,
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let written = 0;
  for (const frame of frames) {
    if (written >= after) {
      response.destroy();
      return;
    }
    if (response.destroyed) return;
    response.write(frame);
    written++;
    // One frame per turn of the event loop: the client reads them as they come, not as one buffer.
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** The parsed body, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
