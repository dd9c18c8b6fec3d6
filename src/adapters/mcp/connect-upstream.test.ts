import { describe, expect, it } from 'vitest';
import {
  isConnectionLoss,
  resolveHeaders,
  takesClientHeaders,
  UpstreamSetupError,
  withClientHeaders,
} from './connect-upstream.js';

class StreamableHTTPError extends Error {
  override readonly name = 'StreamableHTTPError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

describe('connectUpstream helpers', () => {
  it("puts the client's headers in place of fromClient ones; one not sent says so when connecting", () => {
    const target = {
      kind: 'http',
      url: 'https://x',
      headers: {
        Authorization: { kind: 'client', name: 'x-token' },
        'X-Team': { kind: 'value', value: 'core' },
      },
    } as const;
    expect(takesClientHeaders(target)).toBe(true);
    const filled = withClientHeaders(target, { 'x-token': 'Bearer mine' });
    expect(takesClientHeaders(filled)).toBe(false);
    if (filled.kind !== 'http') throw new Error('an http target stays one');
    expect(resolveHeaders(filled.headers, {})).toEqual({ Authorization: 'Bearer mine', 'X-Team': 'core' });
    const unsent = withClientHeaders(target, {});
    if (unsent.kind !== 'http') throw new Error('an http target stays one');
    expect(() => resolveHeaders(unsent.headers, {})).toThrow(
      new UpstreamSetupError(
        "the header Authorization is the client's x-token header, which this client did not send",
      ),
    );
  });

  it('reads header values from the environment, with a prefix; an unset variable names itself', () => {
    expect(
      resolveHeaders(
        {
          Authorization: { kind: 'env', name: 'TOKEN', prefix: 'Bearer ' },
          'X-Team': { kind: 'value', value: 'core' },
        },
        { TOKEN: 'abc' },
      ),
    ).toEqual({ Authorization: 'Bearer abc', 'X-Team': 'core' });
    expect(() => resolveHeaders({ A: { kind: 'env', name: 'MISSING', prefix: '' } }, {})).toThrow(
      new UpstreamSetupError('the header A reads the variable MISSING, which is not set'),
    );
    expect(() =>
      resolveHeaders({ A: { kind: 'env', name: 'BAD', prefix: '' } }, { BAD: 'a\r\nX: y' }),
    ).toThrow('not a valid header value');
  });

  it('tells a lost server (refused, reset, session gone, gateway down) from an answer', () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    for (const lost of [
      refused,
      new Error('Not connected'),
      new Error('Maximum reconnection attempts (2) exceeded.'),
      new StreamableHTTPError(404, 'Session not found'),
      new StreamableHTTPError(503, 'Service Unavailable'),
    ])
      expect(isConnectionLoss(lost)).toBe(true);
    for (const answer of [
      new StreamableHTTPError(500, 'Internal'),
      new StreamableHTTPError(401, 'Unauthorized'),
      Object.assign(new Error('Invalid params'), { code: -32602 }),
      'fetch failed',
      undefined,
    ])
      expect(isConnectionLoss(answer)).toBe(false);
  });
});
