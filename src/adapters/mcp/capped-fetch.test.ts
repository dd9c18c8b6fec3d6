import { describe, expect, it } from 'vitest';
import { cappedFetch, ResponseTooLargeError } from './capped-fetch.js';

/** A base fetch answering `chunks` as a stream, with the headers given. */
function answering(chunks: readonly string[], headers: Record<string, string> = {}): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      { status: 200, headers },
    );
}

describe('cappedFetch', () => {
  it('passes an answer within the bound unchanged', async () => {
    const response = await cappedFetch(10, answering(['{"a":', '1}'], { 'x-kept': 'yes' }))('http://x', {
      method: 'POST',
    });
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.headers.get('x-kept')).toBe('yes');
  });

  it('fails a streamed answer once it passes the bound, whatever its declared length', async () => {
    const response = await cappedFetch(10, answering(['0123456789', 'x']))('http://x', { method: 'POST' });
    await expect(response.text()).rejects.toThrow(ResponseTooLargeError);
  });

  it('refuses a declared length over the bound before reading', async () => {
    await expect(
      cappedFetch(10, answering(['0123456789x'], { 'content-length': '11' }))('http://x', { method: 'POST' }),
    ).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });

  it('leaves the long-lived GET stream uncapped', async () => {
    const response = await cappedFetch(4, answering(['0123456789']))('http://x', { method: 'GET' });
    expect(await response.text()).toBe('0123456789');
  });
});
