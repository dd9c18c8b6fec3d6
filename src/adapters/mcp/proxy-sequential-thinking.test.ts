// The proxy in front of the real server-sequential-thinking, a tool models call many times in a row: a
// legitimate sequence passes, the same thought sent again and again is stopped by the loop guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, clientV1, clientV2, proxyFor } from './__fixtures__/proxy-client.js';
import { SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import type { McpProxy } from './mcp-proxy.js';

let proxy: McpProxy;
let auditPath: string;

beforeAll(async () => {
  ({ proxy, auditPath } = await proxyFor('@modelcontextprotocol/server-sequential-thinking', [], {
    // The hint of docs/mcp.md: the answer's `thoughtHistoryLength` grows with every call, so it is no news.
    loopGuard: { hints: { sequentialthinking: { ignoreFields: ['thoughtHistoryLength'] } } },
  }));
}, SPAWN_TIMEOUT_MS);
afterAll(async () => {
  await proxy?.close();
});

const thought = (n: number, total: number) => ({
  thought: `Step ${n}: look at part ${n} of the problem.`,
  thoughtNumber: n,
  totalThoughts: total,
  nextThoughtNeeded: n < total,
});
const texts = (result: object) =>
  (result as { content: { text?: string }[] }).content.map((part) => part.text);

describe('the proxy in front of server-sequential-thinking', () => {
  it("40 distinct thoughts pass, each result the server's own, with no note", async () => {
    const { client, session } = await clientV2(proxy);
    for (let n = 1; n <= 40; n++) {
      const result = await client.callTool({ name: 'sequentialthinking', arguments: thought(n, 40) });
      expect(result.isError).toBeFalsy();
      expect(result.content).toHaveLength(1);
      expect(JSON.parse(texts(result)[0] ?? '')).toMatchObject({ thoughtNumber: n, totalThoughts: 40 });
    }
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records).toHaveLength(40);
    expect(records.every((record) => record.outcome === 'success')).toBe(true);
    await client.close();
  });

  it('the same thought repeated: the third gets the stop note, the fourth runs and, the same again, is refused LOOP_DETECTED', async () => {
    const { client, session } = await clientV1(proxy);
    const args = thought(1, 5);
    const results = [];
    for (let i = 0; i < 4; i++)
      results.push(await client.callTool({ name: 'sequentialthinking', arguments: args }));
    expect(results[0]?.content).toHaveLength(1);
    expect(texts(results[2] ?? { content: [] }).at(-1)).toMatch(/sequentialthinking/);
    expect(results[2]?.content).toHaveLength(2);
    // A tool of unknown effect (the server is not trusted) may be a read: it runs, and its result decides.
    expect(results[3]).toEqual({
      content: [
        {
          type: 'text',
          text: expect.stringMatching(/^LOOP_DETECTED: This call to sequentialthinking ran again/),
        },
      ],
      isError: true,
      _meta: { 'toolwarden/code': 'LOOP_DETECTED' },
    });
    // Another thought is not the loop: it runs.
    const next = await client.callTool({ name: 'sequentialthinking', arguments: thought(2, 5) });
    expect(next.isError).toBeFalsy();
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records.map((record) => record.outcome)).toEqual(Array(5).fill('success'));
    // The fourth ran, and was answered LOOP_DETECTED: its record says so, the report counts it as a loop refusal.
    expect(records.map((record) => record.code)).toEqual([
      undefined,
      undefined,
      undefined,
      'LOOP_DETECTED',
      undefined,
    ]);
    await client.close();
  });
});
