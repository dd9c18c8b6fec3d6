import { startTcpProxy } from '../../postgres/__fixtures__/tcp-proxy.js';

/** A TCP proxy to a redis-server that counts network round trips (see `countNetworkRoundTrips`). */
export interface RoundTripProxy {
  /** `redis://127.0.0.1:<port>` through the proxy. */
  readonly url: string;
  /** The round trips clients made through the proxy while `run` ran. */
  during(run: () => Promise<unknown>): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free port of 127.0.0.1 to the Redis on `targetPort` that counts round trips: each
 * time a client sends after the server last answered (or first) is one. Commands a client sends together
 * (a pipeline, or commands queued in one turn of its event loop, which node-redis writes at once) are one
 * round trip; a command sent after an answer is another. Count one client at a time: the proxy does not
 * tell connections apart. The slow log (`countRoundTrips`) counts commands instead.
 */
export async function countNetworkRoundTrips(targetPort: number): Promise<RoundTripProxy> {
  let trips = 0;
  /** Whether the server answered since a client last sent. */
  let answered = true;
  const proxy = await startTcpProxy(targetPort, {
    sent: () => {
      if (answered) trips++;
      answered = false;
    },
    answered: () => {
      answered = true;
    },
  });
  return {
    url: `redis://127.0.0.1:${new URL(proxy.url).port}`,
    async during(run) {
      const before = trips;
      await run();
      return trips - before;
    },
    close: () => proxy.close(),
  };
}
