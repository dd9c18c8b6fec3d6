// Two proxy instances on the machine's Redis (a key prefix of this file's own, deleted after), as behind a
// load balancer: one client's conversation (`x-toolwarden-session`) served by both in turn, over Streamable
// HTTP (a 2025 session, or a stateless 2026-07-28 client), in front of one remote server. The loop guard,
// the limits and the idempotency records act as one.
import { randomUUID } from 'node:crypto';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisPrefixes } from '../redis/__fixtures__/redis-prefixes.js';
import { SHARED_REDIS_URL } from '../redis/__fixtures__/shared-redis.js';
import { type HttpUpstream, startHttpUpstream } from './__fixtures__/http-test-server.js';
import type { McpProxy } from './mcp-proxy.js';
import { createMcpProxy } from './mcp-proxy-server.js';
import { resolveClientKeys } from './proxy/client-keys.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { type McpProxyHttpServer, serveMcpProxyHttp } from './serve-mcp-proxy-http.js';

const TIMEOUT_MS = 30_000;
const KEY = 'alice-key-0123456789abcdef';
const prefixes = redisPrefixes();
let upstream: HttpUpstream;
const instances: { proxy: McpProxy; front: McpProxyHttpServer }[] = [];
const logs: string[] = [];

beforeAll(async () => {
  upstream = await startHttpUpstream();
  const keyPrefix = prefixes.next();
  for (let index = 0; index < 2; index++) {
    const config = parseProxyConfig(
      {
        servers: { gh: { url: upstream.url } },
        limits: { tools: { 'gh.echo': 5 } },
        idempotentWrites: { tools: ['gh.create_issue'], store: { redis: SHARED_REDIS_URL, keyPrefix } },
        auth: { clients: { alice: { env: 'ALICE_KEY' } } },
      },
      'test config',
    );
    const env = { ALICE_KEY: KEY };
    const proxy = await createMcpProxy({ config, env, onLog: (line) => logs.push(line) });
    const { keys } = resolveClientKeys(config.auth?.kind === 'keys' ? config.auth.clients : {}, [], env);
    const front = await serveMcpProxyHttp(proxy, {
      host: '127.0.0.1',
      port: 0,
      authenticate: (header) => keys.authenticate(header),
    });
    instances.push({ proxy, front });
  }
}, TIMEOUT_MS);

afterAll(async () => {
  for (const { proxy, front } of instances) {
    await front.close();
    await proxy.close();
  }
  await upstream?.stop();
  await prefixes.cleanup();
});

/**
 * One client session on each instance, both continuing the same conversation; `stateless`: the second is
 * a v2 client on the stateless 2026-07-28 protocol (no session: the header names the conversation).
 */
async function conversation(instanceCount = 2, stateless = false): Promise<Client[]> {
  const id = `conversation-${randomUUID()}`;
  const clients: Client[] = [];
  for (const { front } of instances.slice(0, instanceCount)) {
    if (stateless && clients.length === 1) {
      const modern = new ClientV2(
        { name: 'shared-state-test', version: '0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await modern.connect(
        new HttpV2(new URL(front.url), {
          requestInit: { headers: { Authorization: `Bearer ${KEY}`, 'x-toolwarden-session': id } },
        }),
      );
      // Only callTool and close are used, which both clients have with the same shapes.
      clients.push(modern as unknown as Client);
      continue;
    }
    const client = new Client({ name: 'shared-state-test', version: '0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(front.url), {
        requestInit: { headers: { Authorization: `Bearer ${KEY}`, 'x-toolwarden-session': id } },
      }),
    );
    clients.push(client);
  }
  return clients;
}

/** Calls in turn through each client (A, B, A, …), each result as the client saw it. */
async function alternate(
  clients: Client[],
  calls: { name: string; arguments: Record<string, unknown> }[],
): Promise<{ isError: boolean; code: unknown; texts: string[] }[]> {
  const seen = [];
  for (const [index, call] of calls.entries()) {
    const client = clients[index % clients.length] as Client;
    const result = await client.callTool(call);
    seen.push({
      isError: result.isError === true,
      code: result._meta?.['toolwarden/code'],
      texts: (result.content as { text?: string }[]).map((part) => part.text ?? ''),
    });
  }
  for (const client of clients) await client.close();
  return seen;
}

describe('two proxy instances sharing Redis serve one conversation as one proxy', () => {
  it(
    'the loop guard stops a loop that spans both instances at the call one instance would stop it',
    async () => {
      const same = Array.from({ length: 4 }, () => ({ name: 'gh.echo', arguments: { text: 'again' } }));
      const alone = await alternate(await conversation(1), same);
      const both = await alternate(await conversation(2), same);
      expect(both).toEqual(alone);
      // The last call, on the second instance, is refused for a loop the first instance saw begin.
      expect(both.at(-1)).toMatchObject({ isError: true, code: 'LOOP_DETECTED' });
      expect(both.slice(0, 2).every((seen) => !seen.isError)).toBe(true);
    },
    TIMEOUT_MS,
  );

  it(
    'a 2025 session on one instance and a stateless 2026-07-28 client on the other continue one conversation',
    async () => {
      const same = Array.from({ length: 4 }, () => ({ name: 'gh.echo', arguments: { text: 'mixed' } }));
      const alone = await alternate(await conversation(1), same);
      const mixed = await alternate(await conversation(2, true), same);
      expect(mixed).toEqual(alone);
      expect(mixed.at(-1)).toMatchObject({ isError: true, code: 'LOOP_DETECTED' });
    },
    TIMEOUT_MS,
  );

  it(
    "counts the conversation's limits across both instances",
    async () => {
      const calls = Array.from({ length: 6 }, (_, index) => ({
        name: 'gh.echo',
        arguments: { text: `text ${index}` },
      }));
      const seen = await alternate(await conversation(2), calls);
      expect(seen.slice(0, 5).map((one) => one.isError)).toEqual([false, false, false, false, false]);
      // Each instance served three: only the count they share is at the limit of 5.
      expect(seen[5]).toMatchObject({ isError: true, code: 'TOOL_CALL_LIMIT' });
    },
    TIMEOUT_MS,
  );

  it(
    'a write repeated through the other instance is replayed, not run again',
    async () => {
      const text = `issue ${randomUUID()}`;
      const write = { name: 'gh.create_issue', arguments: { text } };
      const seen = await alternate(await conversation(2), [write, write]);
      expect(seen[0]?.isError).toBe(false);
      // The same answer (the guard may add a note beside it: the write repeated is a repeat).
      expect(seen[1]?.texts[0]).toBe(seen[0]?.texts[0]);
      const numbers = upstream.created.filter((created) => created === text);
      expect(numbers).toHaveLength(1);
    },
    TIMEOUT_MS,
  );

  it('refuses a conversation id that is not one (400) before a session opens', async () => {
    const before = instances[0]?.front.sessions;
    const response = await fetch(instances[0]?.front.url ?? '', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${KEY}`,
        'x-toolwarden-session': 'x'.repeat(129),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
      }),
    });
    expect(response.status).toBe(400);
    expect(instances[0]?.front.sessions).toBe(before);
  });

  it('said nothing of a store failure', () => {
    expect(logs.filter((line) => line.includes("guard's memory"))).toEqual([]);
  });
});
