import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type BodyRead, readBody } from './http-io.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that reads each request's body (at most `max` bytes) and hands the read and the request over. */
async function reading(max: number) {
  const reads: { read: BodyRead; message: IncomingMessage }[] = [];
  let arrived: () => void = () => {};
  const next = () => new Promise<void>((resolve) => (arrived = resolve));
  let waiting = next();
  server = createServer(async (message, response) => {
    const read = await readBody(message, max);
    reads.push({ read, message });
    arrived();
    if (!response.destroyed) response.end('done');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** The next read, once the server made it. */
    async read() {
      await waiting;
      waiting = next();
      return reads.shift() as { read: BodyRead; message: IncomingMessage };
    },
  };
}

/** Sends a POST whose body goes in `chunks` (chunked, no length) and, unless `end` is false, ends it. */
function send(port: number, chunks: readonly string[], end = true) {
  const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/' });
  outgoing.on('error', () => {});
  outgoing.on('response', (response) => response.resume());
  for (const chunk of chunks) outgoing.write(chunk);
  if (end) outgoing.end();
  return outgoing;
}

describe('readBody', () => {
  it('reads a body sent in pieces, whole', async () => {
    const server = await reading(100);
    send(server.port, ['{"a":', '1}']);
    const { read } = await server.read();
    expect(read.kind === 'ok' && read.body.toString()).toBe('{"a":1}');
  });

  it('refuses a body over the limit: unread when its length says so, else stops reading and destroys it', async () => {
    const server = await reading(10);
    const declared = httpRequest({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      headers: { 'content-length': 11 },
    });
    declared.on('error', () => {});
    declared.end('x'.repeat(11));
    expect((await server.read()).read).toEqual({ kind: 'too-large', max: 10 });
    send(server.port, ['x'.repeat(6), 'y'.repeat(6)], false);
    const grown = await server.read();
    expect(grown.read).toEqual({ kind: 'too-large', max: 10 });
    expect(grown.message.destroyed).toBe(true);
  });

  it('says it failed when the client goes away mid-body (no hang)', async () => {
    const server = await reading(100);
    const outgoing = send(server.port, [], false);
    outgoing.write('{"a":', () => outgoing.destroy());
    const { read } = await server.read();
    expect(read.kind).toBe('failed');
  });
});
