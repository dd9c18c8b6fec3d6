// The proxy over Streamable HTTP in front of remote servers whose auth is each client's own: a server's
// header `{ "fromClient": … }` is read from the client's request and sent on that client session's own
// connection to the server, never logged or audited; the proxy's own key is never passed on. And a
// remote server (server-everything, a process of its own) killed mid-call: the call's clear error, its
// tools withdrawn (list_changed), the other servers still serving, the call in the audit.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
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
const KEYS = { alice: 'alice-key-0123456789abcdef', bob: 'bob-key-0123456789abcdef' };
const TOKENS = { alice: 'Bearer alice-github-token-1', bob: 'Bearer bob-github-token-2' };

let folder: string;
let gh: HttpUpstream;
let shared: HttpUpstream;
let everything: ChildProcess;
let proxy: McpProxy;
let front: McpProxyHttpServer;
let auditPath: string;
const logs: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-proxy-credentials-'));
  auditPath = join(folder, 'audit.jsonl');
  gh = await startHttpUpstream();
  shared = await startHttpUpstream();
  const port = await freePort();
  everything = spawn(
    process.execPath,
    [serverEntry('@modelcontextprotocol/server-everything'), 'streamableHttp'],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', PORT: String(port) },
      stdio: 'ignore',
    },
  );
  await until(async () =>
    fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    ),
  );
  const config = parseProxyConfig(
    {
      servers: {
        gh: { url: gh.url, headers: { Authorization: { fromClient: 'X-GitHub-Authorization' } } },
        // With keys, the client's Authorization is the proxy's key: it is never passed on.
        keyed: { url: shared.url, headers: { Authorization: { fromClient: 'Authorization' } } },
        shared: { url: shared.url },
        every: { url: `http://127.0.0.1:${port}/mcp`, reconnect: false },
      },
      audit: { jsonl: auditPath },
      auth: { clients: { alice: { env: 'ALICE_KEY' }, bob: { env: 'BOB_KEY' } } },
    },
    'test config',
  );
  const env = { ALICE_KEY: KEYS.alice, BOB_KEY: KEYS.bob };
  proxy = await createMcpProxy({ config, env, onLog: (line) => logs.push(line) });
  const { keys } = resolveClientKeys(config.auth?.kind === 'keys' ? config.auth.clients : {}, [], env);
  front = await serveMcpProxyHttp(proxy, {
    host: '127.0.0.1',
    port: 0,
    authenticate: (header) => keys.authenticate(header),
  });
}, TIMEOUT_MS);

afterAll(async () => {
  await front?.close();
  await proxy?.close();
  everything?.kill('SIGKILL');
  await gh?.stop();
  await shared?.stop();
  await rm(folder, { recursive: true, force: true });
});

async function connect(key: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'credentials-test', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(front.url), {
      requestInit: { headers: { Authorization: `Bearer ${key}`, ...headers } },
    }),
  );
  return client;
}

async function names(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content[0]?.text ?? '').toString();
}

describe("a remote server's auth passed through from each client", () => {
  it(
    "sends each client session's own header on a connection of its own; never the proxy's key",
    async () => {
      const alice = await connect(KEYS.alice, { 'X-GitHub-Authorization': TOKENS.alice });
      const bob = await connect(KEYS.bob, { 'X-GitHub-Authorization': TOKENS.bob });
      for (const client of [alice, bob])
        expect(await names(client)).toEqual(expect.arrayContaining(['gh.echo', 'shared.echo']));
      expect(textOf(await alice.callTool({ name: 'gh.echo', arguments: { text: 'from alice' } }))).toBe(
        'from alice',
      );
      expect(textOf(await bob.callTool({ name: 'gh.echo', arguments: { text: 'from bob' } }))).toBe(
        'from bob',
      );
      // One upstream session per client session, each sent one token only: its client's.
      const seen = [...gh.sessions.values()].map((tokens) => [...tokens]);
      expect(seen).toEqual(expect.arrayContaining([[TOKENS.alice], [TOKENS.bob]]));
      expect(seen.every((tokens) => tokens.length === 1)).toBe(true);
      expect(gh.authorizations.every((value) => value === TOKENS.alice || value === TOKENS.bob)).toBe(true);
      // The proxy's keys reached no server; the server that wanted one was never connected.
      for (const upstream of [gh, shared])
        expect(upstream.authorizations.some((value) => value?.includes('-key-') === true)).toBe(false);
      expect(await names(alice)).not.toContain('keyed.echo');
      await alice.close();
      await bob.close();
    },
    TIMEOUT_MS,
  );

  it(
    'leaves the server out of the session of a client that sent no such header, and says why',
    async () => {
      const client = await connect(KEYS.bob);
      const listed = await names(client);
      expect(listed.some((name) => name.startsWith('gh.'))).toBe(false);
      expect(listed).toContain('shared.echo');
      expect(
        logs.some((line) =>
          line.includes("server gh: could not start: the header Authorization is the client's"),
        ),
      ).toBe(true);
      await client.close();
    },
    TIMEOUT_MS,
  );

  it('writes no client token in the log or the audit', async () => {
    await proxy.flushAudit();
    const written = `${readFileSync(auditPath, 'utf8')}\n${logs.join('\n')}`;
    expect(written).toContain('gh.echo');
    for (const secret of [TOKENS.alice, TOKENS.bob, 'github-token', KEYS.alice, KEYS.bob])
      expect(written).not.toContain(secret);
  });
});

describe('a remote server killed mid-call', () => {
  it(
    'fails the call clearly, withdraws its tools (list_changed), keeps the others, audits the call',
    async () => {
      const client = await connect(KEYS.alice);
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      expect(await names(client)).toContain('every.trigger-long-running-operation');
      const pending = client.callTool({
        name: 'every.trigger-long-running-operation',
        arguments: { duration: 20, steps: 20 },
      });
      // Killed while the call runs: no answer will come, and no shutdown is said.
      await new Promise((resolve) => setTimeout(resolve, 500));
      everything.kill('SIGKILL');
      const failed = await pending;
      expect(failed.isError).toBe(true);
      expect(failed._meta?.['toolwarden/code']).toBe('TOOL_UNAVAILABLE');
      await until(async () => !(await names(client)).some((name) => name.startsWith('every.')));
      await until(async () => changed > 0);
      expect(textOf(await client.callTool({ name: 'shared.echo', arguments: { text: 'alive' } }))).toBe(
        'alive',
      );
      expect(logs.some((line) => line.startsWith('server every:') && line.includes('withdrawn'))).toBe(true);
      await proxy.flushAudit();
      const calls = readFileSync(auditPath, 'utf8')
        .trim()
        .split('\n')
        .map(
          (line) => JSON.parse(line) as { kind: string; toolName?: string; outcome?: string; code?: string },
        )
        .filter(
          (record) => record.kind === 'call' && record.toolName === 'every.trigger-long-running-operation',
        );
      expect(calls).toHaveLength(1);
      expect(calls[0]?.outcome).not.toBe('success');
      await client.close();
    },
    TIMEOUT_MS,
  );
});
