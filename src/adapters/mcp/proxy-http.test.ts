// The proxy as a service: clients over Streamable HTTP (the v1 and v2 SDK clients, each with its key) in
// front of several upstreams at once, namespaced: a Streamable HTTP server made here with the v1 SDK's
// StreamableHTTPServerTransport, server-everything in its own Streamable HTTP mode, and a stdio server
// that exits on request. An upstream lost mid-session takes its tools with it; the others keep serving.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './__fixtures__/free-port.js';
import { type HttpUpstream, startHttpUpstream } from './__fixtures__/http-test-server.js';
import { serverEntry } from './__fixtures__/spawn-server.js';
import { until } from './__fixtures__/until.js';
import type { McpProxy } from './mcp-proxy.js';
import { createMcpProxy } from './mcp-proxy-server.js';
import { resolveClientKeys } from './proxy/client-keys.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { type McpProxyHttpServer, serveMcpProxyHttp } from './serve-mcp-proxy-http.js';

const TIMEOUT_MS = 60_000;
const STDIO_SERVER = fileURLToPath(new URL('./__fixtures__/stdio-test-server.mjs', import.meta.url));
const KEYS = { alice: 'alice-key-0123456789abcdef', bob: 'bob-key-0123456789abcdef' };
const ENV = { ALICE_KEY: KEYS.alice, BOB_KEY: KEYS.bob, GH_TOKEN: 'gh-secret-token' };

let folder: string;
let upstream: HttpUpstream;
let everything: ChildProcess;
let everythingUrl: string;
let proxy: McpProxy;
let front: McpProxyHttpServer;
let auditPath: string;
const logs: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-proxy-http-'));
  auditPath = join(folder, 'audit.jsonl');
  upstream = await startHttpUpstream();
  const port = await freePort();
  everything = startEverything(port);
  everythingUrl = `http://127.0.0.1:${port}/mcp`;
  await waitForPort(port);
  const config = parseProxyConfig(
    {
      servers: {
        gh: { url: upstream.url, headers: { Authorization: { env: 'GH_TOKEN', prefix: 'Bearer ' } } },
        every: { url: everythingUrl },
        local: { command: process.execPath, args: [STDIO_SERVER], reconnect: false },
      },
      limits: { tools: { 'gh.echo': 2 } },
      audit: { jsonl: auditPath },
      auth: { clients: { alice: { env: 'ALICE_KEY' }, bob: { env: 'BOB_KEY' } } },
    },
    'test config',
  );
  proxy = await createMcpProxy({ config, env: ENV, onLog: (line) => logs.push(line) });
  const { keys, problems } = resolveClientKeys(
    config.auth?.kind === 'keys' ? config.auth.clients : {},
    [],
    ENV,
  );
  expect(problems).toEqual([]);
  front = await serveMcpProxyHttp(proxy, {
    host: '127.0.0.1',
    port: 0,
    authenticate: (header) => keys.authenticate(header),
  });
}, TIMEOUT_MS);

afterAll(async () => {
  await front?.close();
  await proxy?.close();
  everything?.kill();
  await upstream?.stop();
  await rm(folder, { recursive: true, force: true });
});

async function connect(key: string | undefined): Promise<Client> {
  const client = new Client({ name: 'http-test-client', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(front.url), {
      requestInit: key === undefined ? {} : { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

async function names(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content[0]?.text ?? '').toString();
}

describe('the proxy over Streamable HTTP, several upstreams behind one endpoint', () => {
  it('refuses a request without a key, or with a wrong one, with 401 before anything runs', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
    };
    for (const authorization of [undefined, 'Bearer wrong-key-0123456789', `Basic ${KEYS.alice}`]) {
      const response = await fetch(front.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(authorization === undefined ? {} : { Authorization: authorization }),
        },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    await expect(connect(undefined)).rejects.toMatchObject({ code: 401 });
    expect(front.sessions).toBe(0);
  });

  it(
    "lists every server's tools under its namespace and routes each call to its server",
    async () => {
      const client = await connect(KEYS.alice);
      expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe('2025-11-25');
      const listed = await names(client);
      expect(listed).toEqual(
        expect.arrayContaining(['gh.create_issue', 'gh.echo', 'every.echo', 'every.get-sum', 'local.exit']),
      );
      expect(listed.every((name) => /^[A-Za-z0-9_.-]{1,64}$/.test(name))).toBe(true);
      expect(textOf(await client.callTool({ name: 'gh.echo', arguments: { text: 'hi' } }))).toBe('hi');
      expect(textOf(await client.callTool({ name: 'every.get-sum', arguments: { a: 2, b: 40 } }))).toContain(
        '42',
      );
      // The configured header reached the remote server, read from the environment.
      expect(upstream.authorizations).toContain('Bearer gh-secret-token');
      await client.close();
    },
    TIMEOUT_MS,
  );

  it(
    "keeps each client session's limits apart, and writes the client's id in its audit records",
    async () => {
      const alice = await connect(KEYS.alice);
      const bob = await connect(KEYS.bob);
      for (let index = 0; index < 2; index++)
        expect(
          (await alice.callTool({ name: 'gh.echo', arguments: { text: `a${index}` } })).isError,
        ).toBeFalsy();
      const third = await alice.callTool({ name: 'gh.echo', arguments: { text: 'a2' } });
      expect(third.isError).toBe(true);
      expect(third._meta?.['toolwarden/code']).toBe('TOOL_CALL_LIMIT');
      expect(textOf(await bob.callTool({ name: 'gh.echo', arguments: { text: 'b' } }))).toBe('b');
      await proxy.flushAudit();
      const records = readFileSync(auditPath, 'utf8')
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              kind: string;
              toolName?: string;
              clientId?: string;
              outcome?: string;
              sessionId?: string;
            },
        );
      const calls = records.filter((record) => record.kind === 'call' && record.toolName === 'gh.echo');
      expect(calls.filter((record) => record.clientId === 'bob').map((record) => record.outcome)).toEqual([
        'success',
      ]);
      expect(calls.filter((record) => record.clientId === 'alice').length).toBeGreaterThanOrEqual(3);
      expect(records.every((record) => record.clientId === 'alice' || record.clientId === 'bob')).toBe(true);
      expect(calls.find((record) => record.clientId === 'bob')?.sessionId).toMatch(/^bob\//);
      await alice.close();
      await bob.close();
    },
    TIMEOUT_MS,
  );

  it(
    'refuses a body too large (413) or not JSON (400), and another path (404), the other sessions unaffected',
    async () => {
      const client = await connect(KEYS.alice);
      const headers = {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${KEYS.alice}`,
      };
      const huge = await fetch(front.url, { method: 'POST', headers, body: 'x'.repeat(5 * 1024 * 1024) });
      expect(huge.status).toBe(413);
      const broken = await fetch(front.url, { method: 'POST', headers, body: '{"jsonrpc": "2.0", ' });
      expect(broken.status).toBe(400);
      expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
      const elsewhere = await fetch(front.url.replace('/mcp', '/admin'), {
        method: 'POST',
        headers,
        body: '{}',
      });
      expect(elsewhere.status).toBe(404);
      expect(textOf(await client.callTool({ name: 'gh.echo', arguments: { text: 'unaffected' } }))).toBe(
        'unaffected',
      );
      await client.close();
    },
    TIMEOUT_MS,
  );

  it(
    "passes prompts and resources through: prompt names namespaced, URIs unchanged, answers the server's own",
    async () => {
      const direct = new Client({ name: 'direct', version: '0' });
      await direct.connect(new StreamableHTTPClientTransport(new URL(everythingUrl)));
      const client = await connect(KEYS.alice);
      const prompts = (await direct.listPrompts()).prompts;
      expect(prompts.length).toBeGreaterThan(0);
      const proxied = (await client.listPrompts()).prompts;
      expect(proxied).toEqual(prompts.map((prompt) => ({ ...prompt, name: `every.${prompt.name}` })));
      const plain = prompts.find((prompt) =>
        (prompt.arguments ?? []).every((argument) => argument.required !== true),
      );
      if (plain !== undefined)
        expect(await client.getPrompt({ name: `every.${plain.name}` })).toEqual(
          await direct.getPrompt({ name: plain.name }),
        );
      const resources = (await direct.listResources()).resources;
      expect(resources.length).toBeGreaterThan(0);
      expect((await client.listResources()).resources).toEqual(resources);
      const first = resources[0] as { uri: string };
      expect(await client.readResource({ uri: first.uri })).toEqual(
        await direct.readResource({ uri: first.uri }),
      );
      await expect(client.readResource({ uri: 'nowhere://x' })).rejects.toMatchObject({ code: -32002 });
      await expect(client.getPrompt({ name: 'gh.nothing' })).rejects.toMatchObject({ code: -32602 });
      await client.close();
      await direct.close();
    },
    TIMEOUT_MS,
  );

  it(
    'passes resource subscriptions on: only a subscribed session is told of an update; list changes go to all',
    async () => {
      const subscriber = await connect(KEYS.alice);
      const other = await connect(KEYS.bob);
      const heard = { subscriber: [] as string[], other: [] as string[] };
      for (const [client, into] of [
        [subscriber, heard.subscriber],
        [other, heard.other],
      ] as const) {
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => {
          into.push(`updated ${note.params.uri}`);
        });
        client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
          into.push('resources changed');
        });
        client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
          into.push('prompts changed');
        });
      }
      const uri = ((await subscriber.listResources()).resources[0] as { uri: string }).uri;
      expect(await subscriber.subscribeResource({ uri })).toEqual({});
      // server-everything sends updates of the URIs its client (the proxy) subscribed to, once this is on.
      const toggled = await subscriber.callTool({ name: 'every.toggle-subscriber-updates', arguments: {} });
      expect(toggled.isError).toBeFalsy();
      await until(async () => heard.subscriber.includes(`updated ${uri}`));
      // A resource added by a tool: server-everything says its resource list changed.
      const added = await other.callTool({
        name: 'every.gzip-file-as-resource',
        arguments: { name: 'hello.txt', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resourceLink' },
      });
      expect(added.isError).toBeFalsy();
      await other.callTool({ name: 'gh.announce_prompts', arguments: {} });
      await until(async () =>
        [heard.subscriber, heard.other].every(
          (into) => into.includes('resources changed') && into.includes('prompts changed'),
        ),
      );
      expect(heard.other.filter((line) => line.startsWith('updated'))).toEqual([]);
      expect(await subscriber.unsubscribeResource({ uri })).toEqual({});
      await subscriber.callTool({ name: 'every.toggle-subscriber-updates', arguments: {} });
      await expect(subscriber.subscribeResource({ uri: 'nowhere://x' })).rejects.toMatchObject({
        code: -32002,
      });
      await subscriber.close();
      await other.close();
    },
    TIMEOUT_MS,
  );

  it("answers another client's session id as no session (404)", async () => {
    const alice = await connect(KEYS.alice);
    const sessionId = (alice.transport as StreamableHTTPClientTransport).sessionId as string;
    const response = await fetch(front.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${KEYS.bob}`,
        'Mcp-Session-Id': sessionId,
        'Mcp-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(404);
    await alice.close();
  });

  it(
    'serves the v2 SDK client over Streamable HTTP too',
    async () => {
      const client = new ClientV2({ name: 'http-test-v2', version: '0' });
      await client.connect(
        new HttpV2(new URL(front.url), { requestInit: { headers: { Authorization: `Bearer ${KEYS.bob}` } } }),
      );
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toContain('every.echo');
      const result = await client.callTool({ name: 'every.echo', arguments: { message: 'v2' } });
      expect(JSON.stringify(result)).toContain('v2');
      await client.close();
    },
    TIMEOUT_MS,
  );

  it(
    'a v2 client that negotiates gets the stateless 2026-07-28; one pinned to it is served too',
    async () => {
      const headers = { Authorization: `Bearer ${KEYS.bob}` };
      const auto = new ClientV2({ name: 'auto', version: '0' }, { versionNegotiation: { mode: 'auto' } });
      await auto.connect(new HttpV2(new URL(front.url), { requestInit: { headers } }));
      expect(auto.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await auto.listTools()).tools.map((tool) => tool.name)).toContain('every.echo');
      await auto.close();
      // The v2 SDK's server package answers it (proxy-stateless-http.test.ts has the rest).
      const pinned = new ClientV2(
        { name: 'pinned', version: '0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await pinned.connect(new HttpV2(new URL(front.url), { requestInit: { headers } }));
      const result = await pinned.callTool({ name: 'every.echo', arguments: { message: 'stateless' } });
      expect(JSON.stringify(result)).toContain('stateless');
      await pinned.close();
    },
    TIMEOUT_MS,
  );

  it(
    'withdraws the tools of a server that exits mid-session (list_changed); the others keep serving',
    async () => {
      const client = await connect(KEYS.alice);
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      expect(await names(client)).toContain('local.exit');
      await client.callTool({ name: 'local.exit', arguments: {} });
      await until(async () => !(await names(client)).some((name) => name.startsWith('local.')));
      await until(async () => changed > 0);
      expect(textOf(await client.callTool({ name: 'gh.echo', arguments: { text: 'still here' } }))).toBe(
        'still here',
      );
      expect(
        JSON.stringify(await client.callTool({ name: 'every.echo', arguments: { message: 'too' } })),
      ).toContain('too');
      const gone = await client.callTool({ name: 'local.env', arguments: {} });
      expect(gone.isError).toBe(true);
      expect(gone._meta?.['toolwarden/code']).toBe('UNKNOWN_TOOL');
      expect(logs.some((line) => line.startsWith('server local:') && line.includes('withdrawn'))).toBe(true);
      await client.close();
    },
    TIMEOUT_MS,
  );

  it(
    "withdraws a remote server's tools when it goes down, says so, and brings them back when it returns",
    async () => {
      const client = await connect(KEYS.bob);
      const port = upstream.port;
      await upstream.stop();
      // A call finds it gone at once (or the SSE stream's end did already): a transient failure, not a crash.
      const failed = await client.callTool({ name: 'gh.create_issue', arguments: { text: 'lost' } });
      expect(failed.isError).toBe(true);
      expect(failed._meta?.['toolwarden/code']).toBe('TOOL_UNAVAILABLE');
      await until(async () => !(await names(client)).some((name) => name.startsWith('gh.')));
      expect(
        JSON.stringify(await client.callTool({ name: 'every.echo', arguments: { message: 'alive' } })),
      ).toContain('alive');
      upstream = await startHttpUpstream(port);
      await until(async () => (await names(client)).includes('gh.create_issue'));
      expect(textOf(await client.callTool({ name: 'gh.create_issue', arguments: { text: 'back' } }))).toBe(
        'issue #1: back',
      );
      expect(logs.some((line) => line.startsWith('server gh:') && line.includes('withdrawn'))).toBe(true);
      await client.close();
    },
    TIMEOUT_MS,
  );

  it(
    'subscribes again, on a server that comes back, to what its sessions had subscribed to',
    async () => {
      const client = await connect(KEYS.alice);
      const heard: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => {
        heard.push(note.params.uri);
      });
      const uri = ((await client.listResources()).resources[0] as { uri: string }).uri;
      await client.subscribeResource({ uri });
      everything.kill('SIGKILL');
      await until(async () => !(await names(client)).some((name) => name.startsWith('every.')));
      everything = startEverything(Number(new URL(everythingUrl).port));
      await until(async () => (await names(client)).includes('every.echo'), 40_000);
      // The server forgot the proxy's subscription with its session: its updates arrive only if the
      // proxy subscribed again on the new session.
      await client.callTool({ name: 'every.toggle-subscriber-updates', arguments: {} });
      await until(async () => heard.includes(uri));
      await client.close();
    },
    TIMEOUT_MS,
  );
});

function startEverything(port: number): ChildProcess {
  return spawn(process.execPath, [serverEntry('@modelcontextprotocol/server-everything'), 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', PORT: String(port) },
    stdio: 'ignore',
  });
}

async function waitForPort(port: number): Promise<void> {
  await until(async () => {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return true;
    } catch {
      return false;
    }
  });
}
