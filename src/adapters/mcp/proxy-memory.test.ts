// The proxy in front of the real server-memory (its file set through `upstream.env.set`): write tools,
// idempotency, and a destructive tool run unconfirmed under `ifNoElicitation: "allow-and-audit"`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, clientV1, proxyFor } from './__fixtures__/proxy-client.js';
import { SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import type { McpProxy } from './mcp-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-proxy-memory-'));
const memoryFile = join(dir, 'memory.jsonl');
let proxy: McpProxy;
let auditPath: string;

beforeAll(async () => {
  ({ proxy, auditPath } = await proxyFor('@modelcontextprotocol/server-memory', [], {
    idempotentWrites: { tools: ['create_entities', 'add_observations'] },
    confirm: { tools: 'destructive', ifNoElicitation: 'allow-and-audit' },
    upstream: { env: { set: { MEMORY_FILE_PATH: memoryFile } } },
  }));
}, SPAWN_TIMEOUT_MS);
afterAll(async () => {
  await proxy?.close();
  rmSync(dir, { recursive: true, force: true });
});

const entity = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
const graph = async (client: Awaited<ReturnType<typeof clientV1>>['client']) =>
  (await client.callTool({ name: 'read_graph', arguments: {} })).structuredContent as {
    entities: { name: string; observations: string[] }[];
  };

describe('the proxy in front of server-memory', () => {
  it('create_entities repeated in a session runs once (the file written through the env the config set)', async () => {
    const { client, session } = await clientV1(proxy);
    const first = await client.callTool({ name: 'create_entities', arguments: { entities: [entity] } });
    expect(first.isError).toBeUndefined();
    expect(first.structuredContent).toEqual({ entities: [entity] });
    const second = await client.callTool({ name: 'create_entities', arguments: { entities: [entity] } });
    // Run again, the server would answer `entities: []` (Ada exists): the replay is the first answer.
    expect(second.structuredContent).toEqual({ entities: [entity] });
    expect(existsSync(memoryFile)).toBe(true);
    expect(readFileSync(memoryFile, 'utf8').match(/"name":"Ada"/g)).toHaveLength(1);
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records.map((record) => [record.toolName, record.outcome, record.replay])).toEqual([
      ['create_entities', 'success', false],
      ['create_entities', 'success', true],
    ]);
    await client.close();
  });

  it('add_observations in another session is its own action: it runs', async () => {
    const { client } = await clientV1(proxy);
    const args = { observations: [{ entityName: 'Ada', contents: ['a note'] }] };
    const result = await client.callTool({ name: 'add_observations', arguments: args });
    expect(result.structuredContent).toEqual({
      results: [{ entityName: 'Ada', addedObservations: ['a note'] }],
    });
    expect((await graph(client)).entities.find((e) => e.name === 'Ada')?.observations).toContain('a note');
    await client.close();
  });

  it('delete_entities (destructiveHint: true), no elicitation, allow-and-audit: it runs, and the audit says unconfirmed', async () => {
    const { client, session } = await clientV1(proxy);
    const result = await client.callTool({ name: 'delete_entities', arguments: { entityNames: ['Ada'] } });
    expect(result.isError).toBeUndefined();
    expect((await graph(client)).entities).toEqual([]);
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records[0]).toMatchObject({
      toolName: 'delete_entities',
      outcome: 'success',
      approval: 'approved',
      decidedBy: 'config: confirm.ifNoElicitation allow-and-audit (not confirmed)',
    });
    await client.close();
  });
});
