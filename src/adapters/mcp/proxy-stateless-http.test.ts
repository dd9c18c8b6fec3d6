// The stateless protocol 2026-07-28 on the proxy's HTTP front (the v2 SDK's server package): the v2
// `Client` pinned to it or negotiating, a conversation named by the request's header, a confirmation by
// the retried request (`input_required`), malformed stateless requests; the v1 client still served.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpUpstream, startHttpUpstream } from './__fixtures__/http-test-server.js';
import type { McpProxy } from './mcp-proxy.js';
import { createMcpProxy } from './mcp-proxy-server.js';
import { resolveClientKeys } from './proxy/client-keys.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { type McpProxyHttpServer, serveMcpProxyHttp } from './serve-mcp-proxy-http.js';

const TIMEOUT_MS = 60_000;
const KEYS = { alice: 'alice-key-0123456789abcdef', bob: 'bob-key-0123456789abcdef' };
const ENV = { ALICE_KEY: KEYS.alice, BOB_KEY: KEYS.bob };
const MODERN = '2026-07-28';

let folder: string;
let upstream: HttpUpstream;
let proxy: McpProxy;
let front: McpProxyHttpServer;
const logs: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-proxy-stateless-'));
  upstream = await startHttpUpstream();
  const config = parseProxyConfig(
    {
      servers: { gh: { url: upstream.url } },
      limits: { tools: { 'gh.echo': 2 } },
      confirm: { tools: ['gh.create_issue'], ifNoElicitation: 'deny' },
      audit: { jsonl: join(folder, 'audit.jsonl') },
      auth: { clients: { alice: { env: 'ALICE_KEY' }, bob: { env: 'BOB_KEY' } } },
    },
    'test config',
  );
  proxy = await createMcpProxy({ config, env: ENV, onLog: (line) => logs.push(line) });
  const { keys } = resolveClientKeys(config.auth?.kind === 'keys' ? config.auth.clients : {}, [], ENV);
  front = await serveMcpProxyHttp(proxy, {
    host: '127.0.0.1',
    port: 0,
    authenticate: (header) => keys.authenticate(header),
    onLog: (line) => logs.push(line),
  });
}, TIMEOUT_MS);

afterAll(async () => {
  await front?.close();
  await proxy?.close();
  await upstream?.stop();
  await rm(folder, { recursive: true, force: true });
});

/** A v2 client on 2026-07-28 (pinned, or negotiating), answering a confirmation with `answer`. */
async function modern(options: {
  readonly key: string;
  readonly conversation?: string;
  readonly mode?: 'auto';
  readonly answer?: 'accept' | 'decline';
  readonly asked?: string[];
}): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'stateless-test', version: '0' },
    {
      versionNegotiation: { mode: options.mode ?? { pin: MODERN } },
      ...(options.answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } }),
    },
  );
  const { answer } = options;
  if (answer !== undefined)
    client.setRequestHandler('elicitation/create', async (request) => {
      options.asked?.push(String((request.params as { message?: unknown }).message));
      return answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
    });
  const headers: Record<string, string> = { Authorization: `Bearer ${options.key}` };
  if (options.conversation !== undefined) headers['x-toolwarden-session'] = options.conversation;
  await client.connect(new HttpV2(new URL(front.url), { requestInit: { headers } }));
  return client;
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content[0]?.text ?? '').toString();
}

function codeOf(result: unknown): unknown {
  return (result as { _meta?: Record<string, unknown> })._meta?.['toolwarden/code'];
}

/** A raw 2026-07-28 POST (the envelope in `_meta`, the version, method and name headers), with alice's key. */
function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const request = body as { method?: unknown; params?: { name?: unknown } } | null;
  const method = typeof request?.method === 'string' ? request.method : 'tools/list';
  const name = request?.params?.name;
  return fetch(front.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${KEYS.alice}`,
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': method,
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('the stateless protocol 2026-07-28 on the HTTP front', () => {
  it(
    'serves a v2 client pinned to 2026-07-28, and one that negotiates gets 2026-07-28, with no transport session',
    async () => {
      const pinned = await modern({ key: KEYS.alice, conversation: 'pinned' });
      expect(pinned.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect((await pinned.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        'gh.announce_prompts',
        'gh.create_issue',
        'gh.echo',
      ]);
      expect(textOf(await pinned.callTool({ name: 'gh.echo', arguments: { text: 'stateless' } }))).toBe(
        'stateless',
      );
      const auto = await modern({ key: KEYS.alice, conversation: 'auto', mode: 'auto' });
      expect(auto.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(textOf(await auto.callTool({ name: 'gh.echo', arguments: { text: 'auto' } }))).toBe('auto');
      // No MCP session was opened for either: the v1 front's sessions are the 2025 clients' only.
      expect(front.sessions).toBe(0);
      await pinned.close();
      await auto.close();
    },
    TIMEOUT_MS,
  );

  it(
    "counts a conversation's calls by the request's header, across clients, under the client's key",
    async () => {
      const first = await modern({ key: KEYS.alice, conversation: 'shared' });
      const second = await modern({ key: KEYS.alice, conversation: 'shared' });
      const other = await modern({ key: KEYS.alice, conversation: 'other' });
      const bob = await modern({ key: KEYS.bob, conversation: 'shared' });
      const echo = (client: ClientV2, text: string) =>
        client.callTool({ name: 'gh.echo', arguments: { text } });
      expect(textOf(await echo(first, 'one'))).toBe('one');
      expect(textOf(await echo(second, 'two'))).toBe('two');
      // The limit (2 per conversation) is reached by the two clients together.
      expect(codeOf(await echo(first, 'three'))).toBe('TOOL_CALL_LIMIT');
      expect(textOf(await echo(other, 'fresh'))).toBe('fresh');
      // Bob's "shared" is his own: a header never reaches another key's conversation.
      expect(textOf(await echo(bob, 'bob'))).toBe('bob');
      // Named in the request's _meta instead (a client with one header for all its conversations).
      const meta = (client: ClientV2, text: string, session: unknown) =>
        client.callTool({ name: 'gh.echo', arguments: { text }, _meta: { 'toolwarden/session': session } });
      const unnamed = await modern({ key: KEYS.alice });
      const another = await modern({ key: KEYS.alice });
      expect(textOf(await meta(unnamed, 'm1', 'by-meta'))).toBe('m1');
      expect(textOf(await meta(another, 'm2', 'by-meta'))).toBe('m2');
      expect(codeOf(await meta(unnamed, 'm3', 'by-meta'))).toBe('TOOL_CALL_LIMIT');
      // A value that is not an id is a JSON-RPC error, before anything runs.
      await expect(meta(unnamed, 'm4', 'x'.repeat(500))).rejects.toThrow(/conversation id/);
      for (const client of [first, second, other, bob, unnamed, another]) await client.close();
    },
    TIMEOUT_MS,
  );

  it(
    'asks for a confirmation by input_required: an accepted retry runs the write, a declined one does not',
    async () => {
      const asked: string[] = [];
      const yes = await modern({ key: KEYS.alice, conversation: 'confirm-yes', answer: 'accept', asked });
      const before = upstream.created.length;
      const ran = await yes.callTool({ name: 'gh.create_issue', arguments: { text: 'approved issue' } });
      expect(ran.isError ?? false).toBe(false);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('gh.create_issue');
      expect(upstream.created.slice(before)).toEqual(['approved issue']);
      const no = await modern({ key: KEYS.alice, conversation: 'confirm-no', answer: 'decline', asked });
      const refused = await no.callTool({ name: 'gh.create_issue', arguments: { text: 'declined issue' } });
      expect(refused.isError).toBe(true);
      expect(codeOf(refused)).toBe('PERMISSION_DENIED');
      expect(asked).toHaveLength(2);
      // A client that cannot be asked (no elicitation) is refused, as ifNoElicitation: deny says.
      const mute = await modern({ key: KEYS.alice, conversation: 'confirm-mute' });
      const denied = await mute.callTool({ name: 'gh.create_issue', arguments: { text: 'mute issue' } });
      expect(codeOf(denied)).toBe('PERMISSION_DENIED');
      expect(upstream.created.slice(before)).toEqual(['approved issue']);
      for (const client of [yes, no, mute]) await client.close();
    },
    TIMEOUT_MS,
  );

  it(
    'takes an answer only for the call it was asked about: a made-up answer is asked again',
    async () => {
      const before = upstream.created.length;
      const call = (params: Record<string, unknown>) =>
        post({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'gh.create_issue', arguments: { text: 'forged' }, _meta: envelope, ...params },
        }).then((response) => response.json() as Promise<{ result?: Record<string, unknown> }>);
      const capabilities = {
        ...envelope,
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      };
      const first = await call({ _meta: capabilities });
      expect(first.result?.resultType).toBe('input_required');
      const state = first.result?.requestState as string;
      const accepted = { 'toolwarden/confirm': { action: 'accept', content: {} } };
      // No state, or the state of other arguments: asked again, nothing ran.
      const unasked = await call({ _meta: capabilities, inputResponses: accepted });
      expect(unasked.result?.resultType).toBe('input_required');
      const other = await call({
        _meta: capabilities,
        arguments: { text: 'something else' },
        inputResponses: accepted,
        requestState: state,
      });
      expect(other.result?.resultType).toBe('input_required');
      expect(upstream.created.length).toBe(before);
      const retried = await call({ _meta: capabilities, inputResponses: accepted, requestState: state });
      expect(retried.result?.isError ?? false).toBe(false);
      expect(upstream.created.slice(before)).toEqual(['forged']);
    },
    TIMEOUT_MS,
  );

  it(
    'answers a malformed stateless request with a JSON-RPC error, and a bad conversation header with 400',
    async () => {
      const badParams = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 42, _meta: envelope },
      });
      const badBody = (await badParams.json()) as { error?: { code: number; message: string } };
      expect(badBody.error?.code).toBe(-32602);
      // Headers that disagree with the body (here: the method's header missing) are refused as such.
      const noMethod = await post(
        { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: envelope } },
        { 'Mcp-Method': '' },
      );
      const noMethodBody = (await noMethod.json()) as { error?: { code: number; message: string } };
      expect(noMethodBody.error?.code).toBe(-32020);
      expect(noMethodBody.error?.message).toContain('Mcp-Method');
      const future = await post(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/list',
          params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
        },
        { 'MCP-Protocol-Version': '2099-01-01' },
      );
      const futureBody = (await future.json()) as { error?: { code: number; message: string } };
      expect(futureBody.error?.message).toMatch(/protocol version|unsupported/i);
      const unknown = await post({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/nope',
        params: { _meta: envelope },
      });
      expect(((await unknown.json()) as { error?: { code: number } }).error?.code).toBe(-32601);
      const header = await post(
        { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: envelope } },
        { 'x-toolwarden-session': ' ' },
      );
      expect(header.status).toBe(400);
      expect(((await header.json()) as { error: { message: string } }).error.message).toContain(
        'x-toolwarden-session',
      );
      // Hostile bodies with the 2026-07-28 headers: each a JSON-RPC error, never a crash of the front.
      const hostile: unknown[] = [
        null,
        5,
        [],
        { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { _meta: envelope } },
        {
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'gh.echo', arguments: 'x', _meta: envelope },
        },
        {
          jsonrpc: '2.0',
          id: 10,
          method: 'tools/list',
          params: { _meta: { ...envelope, 'toolwarden/session': 7 } },
        },
        [{ jsonrpc: '2.0', id: 11, method: 'tools/list', params: { _meta: envelope } }],
        {
          jsonrpc: '2.0',
          id: 12,
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 5 } },
        },
      ];
      for (const body of hostile) {
        const response = await post(body);
        expect(response.status, JSON.stringify(body)).toBeLessThan(500);
        const answer = (await response.json()) as { error?: { code: number; message: string } };
        expect(answer.error?.message, JSON.stringify(body)).toBeTruthy();
      }
      const unkeyed = await post(
        { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: envelope } },
        { Authorization: 'Bearer wrong-key-0123456789' },
      );
      expect(unkeyed.status).toBe(401);
    },
    TIMEOUT_MS,
  );

  it(
    'still serves a v1 client (2025-11-25, a transport session) on the same endpoint',
    async () => {
      const client = new Client({ name: 'v1', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(front.url), {
          requestInit: { headers: { Authorization: `Bearer ${KEYS.bob}` } },
        }),
      );
      expect(front.sessions).toBe(1);
      expect(textOf(await client.callTool({ name: 'gh.echo', arguments: { text: 'v1' } }))).toBe('v1');
      await client.close();
    },
    TIMEOUT_MS,
  );
});
