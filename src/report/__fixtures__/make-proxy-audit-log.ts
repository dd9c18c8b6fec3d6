// Records `proxy-audit.jsonl`: the audit log of the real MCP proxy in front of the real server-memory, one
// session per way a call ends (run, replayed, refused by a limit, by the deny list, by the loop guard, by
// the user, run unconfirmed under allow-and-audit, rejected by the input schema). Rerun it when the proxy's
// records change: `npx tsx src/report/__fixtures__/make-proxy-audit-log.ts`.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientV1, proxyFor } from '../../adapters/mcp/__fixtures__/proxy-client.js';

const target = fileURLToPath(new URL('./proxy-audit.jsonl', import.meta.url));

const memory = mkdtempSync(join(tmpdir(), 'tw-proxy-log-'));
const { proxy, auditPath, dir } = await proxyFor('@modelcontextprotocol/server-memory', [], {
  idempotentWrites: { tools: ['create_entities'] },
  confirm: { tools: 'destructive', ifNoElicitation: 'allow-and-audit' },
  deny: ['delete_relations'],
  limits: { tools: { search_nodes: 2 } },
  upstream: { env: { set: { MEMORY_FILE_PATH: join(memory, 'memory.jsonl') } } },
});
try {
  const entity = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
  // A client without elicitation: its destructive call runs unconfirmed (allow-and-audit).
  const plain = await clientV1(proxy);
  const call = (name: string, args: unknown) =>
    plain.client.callTool({ name, arguments: args as Record<string, unknown> });
  await call('create_entities', { entities: [entity] });
  await call('create_entities', { entities: [entity] }); // replayed
  await call('search_nodes', { query: 'Ada' });
  await call('search_nodes', { query: 'program' });
  await call('search_nodes', { query: 'first' }); // TOOL_CALL_LIMIT
  await call('delete_relations', { relations: [] }); // PERMISSION_DENIED (deny list)
  await call('create_relations', { relations: 'not a list' }); // INVALID_ARGUMENTS
  for (let i = 0; i < 4; i++) await call('open_nodes', { names: ['Ada'] }); // the 4th: LOOP_DETECTED
  await call('delete_entities', { entityNames: ['Nobody'] }); // runs unconfirmed
  await plain.client.close();
  // Clients that can be asked: one user says yes, one says no.
  const yes = await clientV1(proxy, () => 'accept');
  await yes.client.callTool({ name: 'delete_entities', arguments: { entityNames: ['Ghost'] } });
  await yes.client.close();
  const no = await clientV1(proxy, () => 'decline');
  await no.client.callTool({ name: 'delete_entities', arguments: { entityNames: ['Ada'] } });
  await no.client.close();
  await proxy.flushAudit();
  copyFileSync(auditPath, target);
} finally {
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(memory, { recursive: true, force: true });
}
