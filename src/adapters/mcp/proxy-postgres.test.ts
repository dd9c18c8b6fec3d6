// The proxy in front of the archived server-postgres (SDK 1.0.1) against the machine's PostgreSQL: the
// server answers a bad query with a JSON-RPC -32603 carrying the database's raw text; the client of the
// proxy gets a classified isError result instead, its text withheld or redacted.
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, clientV1, proxyFor } from './__fixtures__/proxy-client.js';
import { connectV1, SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';

const URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const POSTGRES = '@modelcontextprotocol/server-postgres';
let direct: ClientV1;
let withheld: Awaited<ReturnType<typeof proxyFor>>;
let shown: Awaited<ReturnType<typeof proxyFor>>;

beforeAll(async () => {
  [direct, withheld, shown] = await Promise.all([
    connectV1(POSTGRES, [URL]),
    proxyFor(POSTGRES, [URL]),
    // The database's error text is the subject: a query naming a password is sent (the secret scan audits it).
    proxyFor(POSTGRES, [URL], { redactErrors: false, secrets: { arguments: 'audit' } }),
  ]);
}, SPAWN_TIMEOUT_MS);
afterAll(async () => {
  await Promise.all([withheld?.proxy.close(), shown?.proxy.close(), direct?.close()]);
});

const text = (result: object) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';
const query = (client: ClientV1, sql: string) => client.callTool({ name: 'query', arguments: { sql } });

describe('the proxy in front of server-postgres', () => {
  it('a good query: the same result as a direct client', async () => {
    const { client } = await clientV1(withheld.proxy);
    expect((await client.listTools()).tools).toEqual((await direct.listTools()).tools);
    expect(await query(client, 'SELECT 1 AS one')).toEqual(await query(direct, 'SELECT 1 AS one'));
    await client.close();
  });

  it("a bad query: the direct client gets -32603 with the raw text; the proxy's client an isError result, text withheld", async () => {
    await expect(query(direct, 'SELECT nope')).rejects.toThrow('column "nope" does not exist');
    const { client, session } = await clientV1(withheld.proxy);
    const result = await query(client, 'SELECT nope');
    expect(result).toMatchObject({ isError: true, _meta: { 'toolwarden/code': 'TOOL_ERROR' } });
    expect(text(result)).toMatch(/^TOOL_ERROR: Tool 'query' failed; its error text is withheld\./);
    expect(text(result)).not.toContain('nope');
    expect(await auditOf(withheld.proxy, withheld.auditPath, session.sessionId)).toMatchObject([
      {
        toolName: 'query',
        outcome: 'invalid-input',
        code: 'TOOL_ERROR',
        argumentsSummary: '{"sql":"SELECT nope"}',
      },
    ]);
    await client.close();
  });

  it('redactErrors false: the database text is shown, redacted (no identifier, no password)', async () => {
    const { client } = await clientV1(shown.proxy);
    const bad = await query(client, 'SELECT nope');
    expect(text(bad)).toBe('TOOL_ERROR: MCP error -32603: column [redacted:identifier] does not exist');
    const leaked = await query(client, 'SELECT 1 FROM "postgres://app:S3cr3tPass@db.internal/shop"');
    expect(leaked).toMatchObject({ isError: true, _meta: { 'toolwarden/code': 'TOOL_ERROR' } });
    expect(text(leaked)).not.toContain('S3cr3tPass');
    // The session goes on: the next query runs.
    expect(await query(client, 'SELECT 2 AS two')).toEqual(await query(direct, 'SELECT 2 AS two'));
    await client.close();
  });
});
