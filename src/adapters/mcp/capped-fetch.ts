/** The error of an answer over the cap: an answer of the server's (not a lost connection), refused. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  /** Read by `mcpFailureKind` as an SDK code it does not know: the server is broken. */
  readonly code = 'RESPONSE_TOO_LARGE';
}

/**
 * A `fetch` whose POST answers are read up to `maxBytes`: past it the body fails with
 * `ResponseTooLargeError`, so one oversized answer fails its request and nothing more is read or kept.
 * The SDK's GET stream (server notifications, open for as long as the session) is not capped as a whole.
 */
export function cappedFetch(maxBytes: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || response.body === null) return response;
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    let read = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          read += chunk.byteLength;
          if (read > maxBytes) controller.error(tooLarge(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function tooLarge(maxBytes: number): ResponseTooLargeError {
  return new ResponseTooLargeError(`the server's answer is over ${maxBytes} bytes; it was not read`);
}
