// The real server-filesystem (spawned over stdio) on a temporary directory, through the v1 SDK client.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRuntime } from '../../chain/runtime.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { connectV1, SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import { fromMcpClient, type McpTools } from './from-mcp-client.js';

const root = mkdtempSync(join(tmpdir(), 'tw-mcp-fs-'));
let client: Awaited<ReturnType<typeof connectV1>>;
let untrusted: McpTools;
let trusted: McpTools;

beforeAll(async () => {
  writeFileSync(join(root, 'a.txt'), 'hello from the root\n');
  client = await connectV1('@modelcontextprotocol/server-filesystem', [root]);
  untrusted = await fromMcpClient(client, { listen: false });
  trusted = await fromMcpClient(client, {
    trusted: true,
    listen: false,
    tool: (info) => (info.destructive ? { needsApproval: true } : undefined),
  });
}, SPAWN_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
});

const user = { role: 'user', content: 'go' } as const;

describe('server-filesystem', () => {
  it('lists 14 tools, each with its outputSchema as the output contract', () => {
    expect(untrusted.tools).toHaveLength(14);
    expect(untrusted.tools.every((tool) => tool.outputJsonSchema !== undefined)).toBe(true);
    expect(untrusted.tools.every((tool) => tool.effect === 'unknown')).toBe(true);
    // Whom to ask follows the hints as given, trusted or not: a read is not asked about.
    expect(untrusted.info('read_text_file')).toMatchObject({ effect: 'unknown', destructive: false });
  });

  it('trusted: read tools by readOnlyHint; write_file, edit_file and move_file are destructive writes', () => {
    const effects = Object.fromEntries(trusted.tools.map((tool) => [tool.name, tool.effect]));
    expect(effects).toMatchObject({
      read_text_file: 'read',
      list_directory: 'read',
      write_file: 'idempotent-write',
      edit_file: 'write',
    });
    const destructive = trusted.tools
      .filter((tool) => trusted.info(tool.name)?.destructive)
      .map((t) => t.name);
    expect(destructive.sort()).toEqual(['edit_file', 'move_file', 'write_file']);
    expect(trusted.info('create_directory')).toMatchObject({
      effect: 'idempotent-write',
      destructive: false,
    });
    expect(trusted.info('write_file')).toMatchObject({ idempotent: true, hints: { destructiveHint: true } });
  });

  it('untrusted defaults: a second read of a file changed in between gets the new content, not a record', async () => {
    const path = join(root, 'notes.txt');
    writeFileSync(path, 'version 1');
    const runtime = createToolRuntime({ tools: untrusted.tools });
    const read = assistantWithCalls([{ name: 'read_text_file', arguments: { path } }]);
    const model = new ScriptedModel({
      script: (_, index) => {
        if (index === 1) writeFileSync(path, 'version 2');
        return index < 2 ? read : { role: 'assistant', content: 'done' };
      },
    });
    const outcome = await runToolLoop({ runtime, model, sessionId: 's1', messages: [user] });
    const seen = outcome.messages.filter((message) => message.role === 'tool').map((m) => m.content);
    expect(seen).toEqual(['{"content":"version 1"}', '{"content":"version 2"}']);
  });

  it('reads a file: the model sees the structured content, checked against the outputSchema', async () => {
    const outcome = await createToolRuntime({ tools: trusted.tools }).executeToolCall({
      name: 'read_text_file',
      arguments: { path: join(root, 'a.txt') },
    });
    expect(outcome).toMatchObject({ isError: false, content: '{"content":"hello from the root\\n"}' });
  });

  it("a path outside the root is the server's isError text, given to the model", async () => {
    const outcome = await createToolRuntime({ tools: trusted.tools }).executeToolCall({
      name: 'read_text_file',
      arguments: { path: '/etc/passwd' },
    });
    expect(outcome).toMatchObject({ isError: true, code: 'TOOL_ERROR', errorClass: 'invalid-input' });
    expect(outcome.type === 'answered' && outcome.content).toMatch(
      /^TOOL_ERROR: Access denied - path outside allowed directories: /,
    );
  });

  it('a destructive write waits for approval in the loop (options.tool), then runs once approved', async () => {
    const path = join(root, 'b.txt');
    const model = new ScriptedModel({
      script: [
        assistantWithCalls([{ name: 'write_file', arguments: { path, content: 'written\n' } }]),
        { role: 'assistant', content: 'done' },
      ],
    });
    const outcome = await runToolLoop({ model, tools: trusted.tools, messages: [user] });
    expect(outcome.type).toBe('interrupted');
    expect(() => readFileSync(path)).toThrow();

    const approved = await runToolLoop({
      from: outcome.state,
      model,
      tools: trusted.tools,
      decisions: { call_1: 'run' },
    });
    expect(approved.type).toBe('completed');
    expect(readFileSync(path, 'utf8')).toBe('written\n');
    const toolText = approved.messages.find((message) => message.role === 'tool')?.content;
    expect(toolText).toBe(`{"content":"Successfully wrote to ${path}"}`);
  });
});
