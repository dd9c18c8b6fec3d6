import { describe, expect, it } from 'vitest';
import { downstreamHeaders, upstreamHeaders } from './forward-headers.js';

const options = {
  owned: new Set(['x-toolwarden-session']),
  key: undefined,
  host: 'provider:443',
  bodyLength: undefined,
  guarded: false,
};

describe('forwarded headers', () => {
  it('leave out the hop-by-hop ones and those the Connection header names, whatever it lists', () => {
    const sent = {
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'x-trace': 't',
      authorization: 'Bearer k',
    };
    expect(upstreamHeaders(sent, options)).toEqual({
      'x-trace': 't',
      authorization: 'Bearer k',
      host: 'provider:443',
    });
    const named = { connection: 'Keep-Alive, X-Hop', 'x-hop': 'h', 'x-trace': 't' };
    expect(upstreamHeaders(named, options)).toEqual({ 'x-trace': 't', host: 'provider:443' });
    expect(downstreamHeaders(named, { rewritten: false })).toEqual({ 'x-trace': 't' });
    expect(
      downstreamHeaders({ connection: 'keep-alive', 'content-length': '2' }, { rewritten: false }),
    ).toEqual({
      'content-length': '2',
    });
  });
});
