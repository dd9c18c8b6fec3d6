// Gateway instances that share nothing but the machine's Redis serve one conversation alternately: the
// turn is judged alike on each, the guard's memory of the session carries from one to the other, and each
// request costs the store at most two round trips.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loopingModel, startFakeOpenAIChat } from '../../../test/fake-providers/openai-chat-provider.js';
import {
  loopingResponsesModel,
  startFakeResponses,
} from '../../../test/fake-providers/openai-responses-provider.js';
import type { Store } from '../../core/store.js';
import { countRoundTrips, startRedisServer } from '../redis/__fixtures__/redis-server.js';
import { countNetworkRoundTrips } from '../redis/__fixtures__/round-trip-proxy.js';
import {
  type AdminClient,
  connectSharedRedis,
  deleteKeysUnder,
  SHARED_REDIS_URL,
  testKeyPrefix,
} from '../redis/__fixtures__/shared-redis.js';
import { createRedisStore } from '../redis/redis-store.js';
import { runClientLoop } from './__fixtures__/client-loop.js';
import { memoryAuditSink } from './__fixtures__/recorders.js';
import { createGateway } from './create-gateway.js';

let admin: AdminClient;
const prefix = testKeyPrefix();
beforeAll(async () => {
  admin = await connectSharedRedis();
});
afterAll(async () => {
  await deleteKeysUnder(admin, prefix);
  admin.destroy();
});

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** A store that counts its round trips. */
function counting(store: Store): Store & { trips: () => number } {
  let trips = 0;
  const trip = <T>(call: () => T): T => {
    trips++;
    return call();
  };
  return {
    get: (key) => trip(() => store.get(key)),
    set: (key, value, options) => trip(() => store.set(key, value, options)),
    delete: (key, options) => trip(() => store.delete(key, options)),
    reserve: (counters, options) => trip(() => store.reserve(counters, options)),
    release: (keys) => trip(() => store.release(keys)),
    close: () => store.close?.() ?? Promise.resolve(),
    trips: () => trips,
  };
}

async function instances(count: number, shared: boolean) {
  const provider = await startFakeOpenAIChat({
    script: loopingModel({ tool: 'getStatus', arguments: { id: 'A-1' }, answer: 'Still pending.' }),
  });
  open.push(provider);
  const audit = memoryAuditSink();
  const urls: string[] = [];
  const stores: ReturnType<typeof counting>[] = [];
  for (let index = 0; index < count; index++) {
    const redis = await createRedisStore(
      { url: SHARED_REDIS_URL },
      { keyPrefix: shared ? prefix : `${prefix}${index}:` },
    );
    const store = counting(redis);
    stores.push(store);
    open.push(store as { close(): Promise<void> });
    const gateway = createGateway({ upstream: { url: provider.url }, store, audit });
    open.push(gateway);
    urls.push((await gateway.listen({ port: 0 })).url);
  }
  // The app sends each request to the next instance in turn (a round-robin load balancer).
  let next = 0;
  const balancer = {
    fetch: (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const target = new URL(urls[next++ % urls.length] as string);
      url.host = target.host;
      return fetch(url, init);
    },
  };
  return { provider, urls, stores, audit, balancer, requests: () => next };
}

describe('gateway instances sharing Redis', () => {
  it('stop a loop served alternately where one instance would, and write each call to the audit once', async () => {
    const { urls, stores, audit, balancer, requests } = await instances(2, true);
    const run = await runClientLoop({
      baseURL: `${urls[0]}/v1`,
      tools: ['getStatus'],
      run: () => '{"state":"PENDING"}',
      headers: { 'x-toolwarden-session': `alt-${prefix}` },
      fetch: balancer.fetch,
    });
    expect(run).toMatchObject({ rounds: 4, executions: 3, final: 'Still pending.' });
    const trips = stores.reduce((sum, store) => sum + store.trips(), 0);
    expect(trips).toBeLessThanOrEqual(2 * requests());
    const calls = audit.records.filter((record) => record.kind === 'call' && record.outcome === 'success');
    expect(calls).toHaveLength(3);
    expect(audit.records.filter((record) => record.kind === 'run')).toHaveLength(1);
  });

  it('carry the guard’s memory of the session to the other instance: the next turn’s repeat stops at once', async () => {
    const turns = async (shared: boolean) => {
      const { urls } = await instances(2, shared);
      const session = { 'x-toolwarden-session': `memory-${shared}-${prefix}` };
      const first = await runClientLoop({
        baseURL: `${urls[0]}/v1`,
        tools: ['getStatus'],
        run: () => '{"state":"PENDING"}',
        headers: session,
      });
      const again = await runClientLoop({
        baseURL: `${urls[1]}/v1`,
        tools: ['getStatus'],
        run: () => '{"state":"PENDING"}',
        headers: session,
        history: first.messages,
        ask: 'Try again, please.',
      });
      return { first, again };
    };
    const shared = await turns(true);
    expect(shared.first.executions).toBe(3);
    expect(shared.again).toMatchObject({ executions: 1, final: 'Still pending.' });
    const apart = await turns(false);
    expect(apart.again.executions).toBe(3);
  });
});

describe('a Responses conversation on Redis, counted on the wire (a private redis-server)', () => {
  it.each([
    ['no session header', {}, 3],
    ['the session header', { 'x-toolwarden-session': 'chained-with-header' }, 4],
  ] as const)(
    'costs at most two round trips per request, chained (previous_response_id) or not (%s)',
    async (_name, session, chainedCommands) => {
      const redis = await startRedisServer();
      open.push({ close: () => redis.stop() });
      const proxy = await countNetworkRoundTrips(redis.port);
      open.push(proxy);
      const store = await createRedisStore({ url: proxy.url });
      open.push(store as { close(): Promise<void> });
      const provider = await startFakeResponses({
        script: loopingResponsesModel({
          tool: 'getStatus',
          arguments: { id: 'A-1' },
          answer: 'Still pending.',
        }),
      });
      open.push(provider);
      const gateway = createGateway({ upstream: { url: provider.url }, store });
      open.push(gateway);
      const { url } = await gateway.listen({ port: 0 });
      const send = async (body: Record<string, unknown>) => {
        const response = await fetch(`${url}/v1/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer app-key', ...session },
          body: JSON.stringify({
            model: 'fake-model',
            tools: [{ type: 'function', name: 'getStatus' }],
            ...body,
          }),
        });
        expect(response.status).toBe(200);
        return (await response.json()) as { id: string; output: { type: string; call_id?: string }[] };
      };
      // Warm: the server caches the store's scripts on their first use (one more round trip, once).
      await send({ input: 'Warm up.' });
      // No session header: the chain's records name the session (a digest of its opening) and carry its
      // record. With the header, the session's record is read beside the chain's, in the same round trip.
      const counted: { trips: number; commands: readonly string[] }[] = [];
      let answer: Awaited<ReturnType<typeof send>> | undefined;
      let input: unknown = 'What is the status of order A-1?';
      let executions = 0;
      for (let request = 0; request < 8; request++) {
        let trips = 0;
        const { commands } = await countRoundTrips(redis.url, async () => {
          trips = await proxy.during(async () => {
            answer = await send({
              input,
              ...(answer === undefined ? {} : { previous_response_id: answer.id }),
            });
          });
        });
        counted.push({ trips, commands });
        const calls = (answer?.output ?? []).filter((item) => item.type === 'function_call');
        if (calls.length === 0) break;
        executions += calls.length;
        input = calls.map((call) => ({
          type: 'function_call_output',
          call_id: call.call_id,
          output: 'PENDING',
        }));
      }
      // The turn is rebuilt from the chain's records: the loop stops as with the whole history.
      expect(executions).toBe(3);
      expect(counted).toHaveLength(4);
      for (const { trips } of counted) expect(trips).toBeLessThanOrEqual(2);
      expect(counted[0]?.commands).toHaveLength(3);
      // The chained requests read the answer's record (and with the header the session's) and write two.
      expect(counted.slice(1).map(({ commands }) => commands.length)).toEqual(Array(3).fill(chainedCommands));
    },
  );
});
