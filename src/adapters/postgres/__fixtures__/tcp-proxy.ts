import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy to PostgreSQL that a test can cut or stall, as a database that went away or froze. */
export interface TcpProxy {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` through the proxy. */
  readonly url: string;
  /** Closes every connection and refuses new ones (a database that went down). */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  /** Holds what clients send (connections stay open, nothing answers): a frozen server. */
  stall(): void;
  /** Sends on what was held, and everything after it. */
  resume(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free port of 127.0.0.1 to the PostgreSQL at `target` (port 5432 of this machine; or
 * another TCP server, as a Redis whose round trips `countNetworkRoundTrips` counts with `watch`), so
 * a test can take the database away from one store without touching the server other tests share.
 */
export async function startTcpProxy(
  targetPort = 5432,
  /** Sees each chunk on its way: what a client sent, what the server answered. */
  watch?: { readonly sent: () => void; readonly answered: () => void },
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  const held: (() => void)[] = [];
  const makeServer = () =>
    createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk) => {
        watch?.sent();
        if (stalled) held.push(() => upstream.write(chunk));
        else upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        watch?.answered();
        client.write(chunk);
      });
    });
  let server: Server = makeServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : port);
      });
    });
  const port = await listen(0);
  const closeServer = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    cut: closeServer,
    restore: async () => {
      server = makeServer();
      await listen(port);
    },
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      for (const send of held.splice(0)) send();
    },
    close: closeServer,
  };
}
