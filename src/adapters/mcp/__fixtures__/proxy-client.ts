// A proxy in front of a real server (spawned over stdio), and official SDK clients talking to it over an
// in-memory pair: v1 (`@modelcontextprotocol/sdk`) and v2 (`@modelcontextprotocol/client`).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AuditCallRecord } from '../../../audit/audit-record.js';
import type { McpProxy, McpProxyServeOptions, McpProxySession } from '../mcp-proxy.js';
import { createMcpProxy } from '../mcp-proxy-server.js';
import { parseProxyConfig } from '../proxy/proxy-config.js';
import { type ServerPackage, serverEntry } from './spawn-server.js';

/** A proxy with its config (an audit log in a temp folder added) in front of `pkg`; `onLog` gets its log lines. */
export async function proxyFor(
  pkg: ServerPackage,
  args: readonly string[],
  config: Record<string, unknown> = {},
  onLog?: (line: string) => void,
): Promise<{ proxy: McpProxy; auditPath: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolwarden-proxy-'));
  const auditPath = join(dir, 'audit.jsonl');
  const proxy = await createMcpProxy({
    config: parseProxyConfig({ audit: { jsonl: auditPath }, ...config }, 'test config'),
    upstream: {
      command: process.execPath,
      args: [serverEntry(pkg), ...args],
      stderr: 'ignore',
      env: {},
    },
    ...(onLog === undefined ? {} : { onLog }),
  });
  return { proxy, auditPath, dir };
}

export type Elicit = (message: string) => 'accept' | 'decline' | 'cancel';

/**
 * A v1 client of a new session of the proxy; with `elicit`, it declares elicitation and answers with it;
 * `serve`: the session's options (its id).
 */
export async function clientV1(
  proxy: McpProxy,
  elicit?: Elicit,
  serve: McpProxyServeOptions = {},
): Promise<{ client: ClientV1; session: McpProxySession; asked: string[] }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new ClientV1(
    { name: 'proxy-test', version: '0' },
    { capabilities: elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: elicit(request.params.message), content: {} };
    });
  }
  const session = proxy.serve(serverSide, serve);
  await client.connect(clientSide);
  return { client, session: await session, asked };
}

/** A v2 client of a new session of the proxy (the v2 client takes any transport with the v1 shape). */
export async function clientV2(proxy: McpProxy): Promise<{ client: ClientV2; session: McpProxySession }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new ClientV2({ name: 'proxy-test-v2', version: '0' });
  const session = proxy.serve(serverSide);
  await client.connect(clientSide as never);
  return { client, session: await session };
}

/** The call records of one session in the audit log. */
export async function auditOf(proxy: McpProxy, path: string, sessionId: string): Promise<AuditCallRecord[]> {
  await proxy.flushAudit();
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditCallRecord)
    .filter((record) => record.kind === 'call' && record.sessionId === sessionId);
}
