// The archived server-postgres (SDK 1.0.1, spawned over stdio) against the machine's PostgreSQL: a bad
// query is a JSON-RPC -32603 error carrying the database's own text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRuntime } from '../../chain/runtime.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { connectV1, SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import { fromMcpClient, type McpTools } from './from-mcp-client.js';
import { McpCallError } from './mcp-call-error.js';

const URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
let client: Awaited<ReturnType<typeof connectV1>>;
let withheld: McpTools;
let opened: McpTools;

beforeAll(async () => {
  client = await connectV1('@modelcontextprotocol/server-postgres', [URL]);
  withheld = await fromMcpClient(client, { listen: false });
  opened = await fromMcpClient(client, { listen: false, showErrorMessages: true });
}, SPAWN_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
});

async function query(tools: McpTools, sql: string) {
  const outcome = await createToolRuntime({ tools: tools.tools }).executeToolCall({
    name: 'query',
    arguments: { sql },
  });
  if (outcome.type !== 'answered') throw new Error('interrupted');
  return outcome;
}

describe('server-postgres', () => {
  it('lists its one tool, of unknown effect (it says nothing, and is not trusted)', () => {
    expect(withheld.tools.map((tool) => [tool.name, tool.effect])).toEqual([['query', 'unknown']]);
  });

  it('answers a good query with its rows', async () => {
    const answer = await query(withheld, 'SELECT 1 AS one');
    expect(answer).toMatchObject({ isError: false });
    expect(JSON.parse(answer.content)).toEqual([{ one: 1 }]);
  });

  it('a bad query: -32603 with the raw database text, withheld from the model by default', async () => {
    const answer = await query(withheld, 'SELECT nope FROM pg_class');
    expect(answer).toMatchObject({ code: 'TOOL_ERROR', errorClass: 'invalid-input' });
    expect(answer.content).toBe(
      "TOOL_ERROR: Tool 'query' failed; its error text is withheld. Check the arguments and call it again only with changed values: repeating the same call will not help.",
    );
    const error = answer.result.type === 'error' ? answer.result.error : undefined;
    expect(McpCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'protocol', rpcCode: -32603 });
    expect((error as Error).message).toBe('MCP error -32603: column "nope" does not exist');
  });

  it('opened (showErrorMessages), the text reaches the model redacted: identifiers and credentials', async () => {
    const bad = await query(opened, 'SELECT nope FROM pg_class');
    expect(bad.content).toBe('TOOL_ERROR: MCP error -32603: column [redacted:identifier] does not exist');
    const leaked = await query(opened, 'SELECT 1 FROM "postgres://app:S3cr3tPass@db.internal/shop"');
    expect(leaked.code).toBe('TOOL_ERROR');
    expect(leaked.content).not.toContain('S3cr3tPass');
    const raw = leaked.result.type === 'error' ? (leaked.result.error as Error).message : '';
    expect(raw).toContain('S3cr3tPass');
  });

  it('in a tool loop, the model gets the classified error and its next query runs', async () => {
    const model = new ScriptedModel({
      script: [
        assistantWithCalls([{ name: 'query', arguments: { sql: 'SELECT nope FROM pg_class' } }]),
        assistantWithCalls([{ name: 'query', arguments: { sql: 'SELECT 2 AS two' } }]),
        { role: 'assistant', content: 'two' },
      ],
    });
    const outcome = await runToolLoop({
      model,
      tools: withheld.tools,
      messages: [{ role: 'user', content: 'count' }],
    });
    expect(outcome.type).toBe('completed');
    const texts = outcome.messages.filter((message) => message.role === 'tool').map((m) => m.content);
    expect(texts[0]).toMatch(/^TOOL_ERROR: Tool 'query' failed; its error text is withheld\./);
    expect(texts.join('\n')).not.toContain('nope');
    expect(JSON.parse(String(texts[1]))).toEqual([{ two: 2 }]);
  });
});
