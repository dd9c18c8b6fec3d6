// What the proxy keeps outside itself, through the real server-memory: the SQLite audit sink, the SQLite
// and Redis stores of idempotent writes across two proxy instances (as after a restart), and telemetry.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportAuditLog } from '../../report/report-audit-log.js';
import { clientV1, proxyFor } from './__fixtures__/proxy-client.js';
import { SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import type { McpProxy } from './mcp-proxy.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const dir = mkdtempSync(join(tmpdir(), 'tw-proxy-state-'));
const memoryFile = join(dir, 'memory.jsonl');
const storePath = join(dir, 'store.db');
const auditDb = join(dir, 'audit.db');
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const opened: McpProxy[] = [];
let proxy: McpProxy;

/** A proxy in front of server-memory on `file`, its writes idempotent, with `config` over that. */
async function memoryProxy(file: string, config: Record<string, unknown>): Promise<McpProxy> {
  const { proxy: started } = await proxyFor('@modelcontextprotocol/server-memory', [], {
    upstream: { env: { set: { MEMORY_FILE_PATH: file } } },
    ...config,
    idempotentWrites: { tools: ['create_entities'], ...(config.idempotentWrites as object) },
  });
  opened.push(started);
  return started;
}

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  proxy = await memoryProxy(memoryFile, {
    audit: { sqlite: auditDb },
    idempotentWrites: { store: { sqlite: storePath } },
    telemetry: true,
    deny: ['delete_*'],
    limits: { tools: { search_nodes: 1 } },
  });
}, SPAWN_TIMEOUT_MS);
afterAll(async () => {
  for (const started of opened) await started.close();
  trace.disable();
  context.disable();
  await provider.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

const entity = (name: string) => ({ name, entityType: 'person', observations: ['a note'] });
const timesIn = (file: string, name: string) =>
  readFileSync(file, 'utf8').split(`"name":"${name}"`).length - 1;

describe('the proxy with SQLite audit: records are rows of toolwarden_audit', () => {
  it("a session's calls (run, denied, limit-refused) are its rows, and the report counts every call row", async () => {
    const { client, session } = await clientV1(proxy);
    await client.callTool({ name: 'create_entities', arguments: { entities: [entity('Audited')] } });
    await client.callTool({ name: 'search_nodes', arguments: { query: 'Audited' } });
    const limited = await client.callTool({ name: 'search_nodes', arguments: { query: 'again' } });
    const denied = await client.callTool({ name: 'delete_entities', arguments: { entityNames: ['x'] } });
    expect([limited.isError, denied.isError]).toEqual([true, true]);
    await proxy.flushAudit();
    const db = new Database(auditDb, { readonly: true });
    const rows = db
      .prepare(
        "SELECT tool_name, outcome, record FROM toolwarden_audit WHERE kind = 'call' AND session_id = ?",
      )
      .all(session.sessionId) as { tool_name: string; outcome: string; record: string }[];
    const callRows = (
      db.prepare("SELECT count(*) AS n FROM toolwarden_audit WHERE kind = 'call'").get() as {
        n: number;
      }
    ).n;
    db.close();
    expect(rows.map((row) => [row.tool_name, row.outcome])).toEqual([
      ['create_entities', 'success'],
      ['search_nodes', 'success'],
      ['search_nodes', 'invalid-input'],
      ['delete_entities', 'denied'],
    ]);
    expect(rows.map((row) => (JSON.parse(row.record) as { code?: string }).code)).toEqual([
      undefined,
      undefined,
      'TOOL_CALL_LIMIT',
      'PERMISSION_DENIED',
    ]);
    const report = await reportAuditLog(auditDb);
    expect(report.records.calls).toBe(callRows);
    expect(report.records.calls).toBeGreaterThanOrEqual(4);
    await client.close();
  });
});

describe('idempotent writes across two proxy instances (a restart), same session id', () => {
  it('SQLite store: the write runs once upstream; the new instance answers with a replay', async () => {
    const sessionId = `proxy-state-${randomUUID()}`;
    const args = { entities: [entity('Restarted')] };
    const before = await clientV1(proxy, undefined, { sessionId });
    const first = await before.client.callTool({ name: 'create_entities', arguments: args });
    expect(first.structuredContent).toEqual(args);
    await before.client.close();
    const restarted = await memoryProxy(memoryFile, {
      audit: { jsonl: join(dir, 'restart.jsonl') },
      idempotentWrites: { store: { sqlite: storePath } },
    });
    const after = await clientV1(restarted, undefined, { sessionId });
    const second = await after.client.callTool({ name: 'create_entities', arguments: args });
    // Run again, server-memory would answer `entities: []` (Restarted exists): this is the recorded answer.
    expect(second.structuredContent).toEqual(args);
    expect(timesIn(memoryFile, 'Restarted')).toBe(1);
    await after.client.close();
  });

  it('a fixed idempotentWrites.scope: sessions of new connections (as the CLI makes them) share the records', async () => {
    const scope = `scope-${randomUUID()}`;
    const file = join(dir, 'memory-scope.jsonl');
    const args = { entities: [entity(`Scoped-${randomUUID()}`)] };
    const name = args.entities[0]?.name ?? '';
    const answers: unknown[] = [];
    for (let instance = 0; instance < 2; instance++) {
      const started = await memoryProxy(file, { idempotentWrites: { store: { sqlite: storePath }, scope } });
      // No session id: each connection is a new session, as under `toolwarden mcp-proxy`.
      const { client, session } = await clientV1(started);
      expect(session.sessionId).not.toBe(scope);
      answers.push((await client.callTool({ name: 'create_entities', arguments: args })).structuredContent);
      await client.close();
    }
    expect(answers).toEqual([args, args]);
    expect(timesIn(file, name)).toBe(1);
  });

  it('Redis store: the same across two instances sharing one Redis', async () => {
    const sessionId = `proxy-state-${randomUUID()}`;
    const file = join(dir, 'memory-redis.jsonl');
    const args = { entities: [entity(`Shared-${randomUUID()}`)] };
    const name = args.entities[0]?.name ?? '';
    const config = { idempotentWrites: { store: { redis: REDIS_URL } } };
    const answers: unknown[] = [];
    for (let instance = 0; instance < 2; instance++) {
      const started = await memoryProxy(file, config);
      const { client } = await clientV1(started, undefined, { sessionId });
      answers.push((await client.callTool({ name: 'create_entities', arguments: args })).structuredContent);
      await client.close();
      await started.close();
    }
    expect(answers).toEqual([args, args]);
    expect(timesIn(file, name)).toBe(1);
  });
});

describe("a session's id given to serve", () => {
  it.each([
    ['empty', ''],
    ['of 201 characters', 's'.repeat(201)],
    ['not a string', 7 as unknown as string],
  ])('is refused when %s, naming the option', async (_, sessionId) => {
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    await expect(proxy.serve(serverSide, { sessionId })).rejects.toThrow(/Invalid option sessionId/);
  });
});

describe('the proxy with telemetry: true and an SDK registered', () => {
  it('one execute_tool span per forwarded call, named by the tool; none for a refused call', async () => {
    exporter.reset();
    const { client } = await clientV1(proxy);
    await client.callTool({ name: 'create_entities', arguments: { entities: [entity('Traced')] } });
    await client.callTool({ name: 'read_graph', arguments: {} });
    await client.callTool({ name: 'search_nodes', arguments: { query: 'Traced' } });
    const limited = await client.callTool({ name: 'search_nodes', arguments: { query: 'more' } });
    const denied = await client.callTool({ name: 'delete_entities', arguments: { entityNames: ['Traced'] } });
    expect([limited._meta?.['toolwarden/code'], denied._meta?.['toolwarden/code']]).toEqual([
      'TOOL_CALL_LIMIT',
      'PERMISSION_DENIED',
    ]);
    const spans = exporter.getFinishedSpans().filter((span) => span.name.startsWith('execute_tool'));
    expect(spans.map((span) => [span.name, span.attributes['gen_ai.tool.name']])).toEqual([
      ['execute_tool create_entities', 'create_entities'],
      ['execute_tool read_graph', 'read_graph'],
      ['execute_tool search_nodes', 'search_nodes'],
    ]);
    await client.close();
  });
});
