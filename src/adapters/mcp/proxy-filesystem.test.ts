// The proxy in front of the real server-filesystem on a temp folder: destructive tools need the user's
// yes (MCP elicitation), a client that cannot be asked is refused, a repeated write runs once, and a
// distinct write (the same arguments after another write) runs again.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, clientV1, proxyFor } from './__fixtures__/proxy-client.js';
import { SPAWN_TIMEOUT_MS } from './__fixtures__/spawn-server.js';
import type { McpProxy } from './mcp-proxy.js';

const FILESYSTEM = '@modelcontextprotocol/server-filesystem';
const root = mkdtempSync(join(tmpdir(), 'tw-proxy-fs-'));
let proxy: McpProxy;
let auditPath: string;

beforeAll(async () => {
  ({ proxy, auditPath } = await proxyFor(FILESYSTEM, [root], {
    idempotentWrites: { tools: ['write_file'] },
    confirm: { tools: 'destructive', ifNoElicitation: 'deny' },
    // A file's content may hold a credential here: the confirmation is the subject, not the secret scan.
    secrets: { tools: { write_file: { arguments: 'audit' } } },
  }));
}, SPAWN_TIMEOUT_MS);
afterAll(async () => {
  await proxy?.close();
  rmSync(root, { recursive: true, force: true });
});

const text = (result: object) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('the proxy in front of server-filesystem', () => {
  it('write_file (destructiveHint: true) with a client that accepts: the user is asked with the arguments, the file is written', async () => {
    const path = join(root, 'accepted.txt');
    const { client, session, asked } = await clientV1(proxy, () => 'accept');
    const result = await client.callTool({ name: 'write_file', arguments: { path, content: 'yes' } });
    expect(result.isError).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('yes');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"write_file"');
    expect(asked[0]).toContain('"content": "yes"');
    // A read is not destructive: not asked.
    await client.callTool({ name: 'read_text_file', arguments: { path } });
    expect(asked).toHaveLength(1);
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records).toMatchObject([
      {
        toolName: 'write_file',
        outcome: 'success',
        approval: 'approved',
        decidedBy: 'user (MCP elicitation)',
        argumentsSummary: JSON.stringify({ path, content: 'yes' }),
      },
      { toolName: 'read_text_file', outcome: 'success', argumentsSummary: JSON.stringify({ path }) },
    ]);
    expect(records[1]?.approval).toBeUndefined();
    await client.close();
  });

  it('a client that declines: PERMISSION_DENIED, nothing written, the refusal audited', async () => {
    const path = join(root, 'declined.txt');
    const { client, session } = await clientV1(proxy, () => 'decline');
    const result = await client.callTool({ name: 'write_file', arguments: { path, content: 'no' } });
    expect(result).toMatchObject({ isError: true, _meta: { 'toolwarden/code': 'PERMISSION_DENIED' } });
    expect(text(result)).toContain('declined');
    expect(() => readFileSync(path)).toThrow();
    expect(await auditOf(proxy, auditPath, session.sessionId)).toMatchObject([
      { toolName: 'write_file', outcome: 'denied', code: 'PERMISSION_DENIED', approval: 'denied' },
    ]);
    await client.close();
  });

  it('a client without elicitation, ifNoElicitation "deny": refused, nothing written', async () => {
    const path = join(root, 'unasked.txt');
    const { client, session } = await clientV1(proxy);
    const content = 'api_key=Zx81bQ9w';
    const result = await client.callTool({ name: 'write_file', arguments: { path, content } });
    expect(result).toMatchObject({ isError: true, _meta: { 'toolwarden/code': 'PERMISSION_DENIED' } });
    expect(text(result)).toContain('cannot ask');
    expect(() => readFileSync(path)).toThrow();
    // The record's summary keeps the path a developer needs; the secret in the content is removed.
    expect(await auditOf(proxy, auditPath, session.sessionId)).toMatchObject([
      {
        toolName: 'write_file',
        outcome: 'denied',
        code: 'PERMISSION_DENIED',
        argumentsSummary: JSON.stringify({ path, content: 'api_key=[redacted:secret]' }),
      },
    ]);
    await client.close();
  });

  it("with no config and a client without elicitation: the operator's log says which tools are refused, and each refused tool once", async () => {
    const lines: string[] = [];
    const plain = (await proxyFor(FILESYSTEM, [root], {}, (line) => lines.push(line))).proxy;
    try {
      const first = await clientV1(plain);
      await expect.poll(() => lines.length).toBe(1);
      expect(lines[0]).toBe(
        'this client cannot ask the user for confirmation (no elicitation): write_file, edit_file, move_file will be refused (PERMISSION_DENIED); set confirm.ifNoElicitation to "allow-and-audit" (runs them unconfirmed, each recorded in the audit log), or list the tools to confirm in confirm.tools, to change this',
      );
      const write = (client: typeof first.client) =>
        client.callTool({ name: 'write_file', arguments: { path: join(root, 'never.txt'), content: 'x' } });
      expect(await write(first.client)).toMatchObject({ _meta: { 'toolwarden/code': 'PERMISSION_DENIED' } });
      await write(first.client);
      await first.client.callTool({ name: 'read_text_file', arguments: { path: join(root, 'never.txt') } });
      expect(lines.slice(1)).toEqual([
        'refused write_file: it needs the user\'s confirmation (the server marks it destructiveHint: true) and this client cannot ask (no elicitation); set confirm.ifNoElicitation to "allow-and-audit" (runs them unconfirmed, each recorded in the audit log), or list the tools to confirm in confirm.tools, to change this',
      ]);
      // Once per tool for the whole proxy: another session's refusal of write_file is not said again.
      const second = await clientV1(plain);
      await expect.poll(() => lines.length).toBe(3);
      await write(second.client);
      expect(lines).toHaveLength(3);
      expect(lines[2]).toBe(lines[0]);
    } finally {
      await plain.close();
    }
  });

  it('write_file in idempotentWrites, repeated in a session: run once, the result replayed', async () => {
    const path = join(root, 'once.txt');
    const { client, session } = await clientV1(proxy, () => 'accept');
    const args = { path, content: 'first' };
    const first = await client.callTool({ name: 'write_file', arguments: args });
    // Changed behind the proxy's back: a second run would write "first" again.
    writeFileSync(path, 'changed by someone else');
    const second = await client.callTool({ name: 'write_file', arguments: args });
    // The replay is the recorded result; the loop guard adds its note about the repeat after it.
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(second.content).toEqual([
      ...(first.content as unknown[]),
      {
        type: 'text',
        text: expect.stringMatching(
          /^NOTE from the runtime: write_file was called with these same arguments 2 times/,
        ),
      },
    ]);
    expect(second.isError).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('changed by someone else');
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records.map((record) => record.replay)).toEqual([false, true]);
    expect(records[1]?.replayOf).toBe(records[0]?.toolCallId);
    await client.close();
  });

  it('write_file in idempotentWrites, "one", "two", then "one" again: three writes, the file holds "one"', async () => {
    const path = join(root, 'one-two-one.txt');
    const { client, session } = await clientV1(proxy, () => 'accept');
    const results = [];
    for (const content of ['one', 'two', 'one']) {
      results.push(await client.callTool({ name: 'write_file', arguments: { path, content } }));
      expect(readFileSync(path, 'utf8')).toBe(content);
    }
    for (const result of results) {
      expect(result.isError).toBeUndefined();
      expect(text(result)).toMatch(/^Successfully wrote to /);
    }
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records.map((record) => [record.toolName, record.outcome, record.replay])).toEqual([
      ['write_file', 'success', false],
      ['write_file', 'success', false],
      ['write_file', 'success', false],
    ]);
    await client.close();
  });

  it('a read repeated: each runs; the same content again is refused LOOP_DETECTED, a file changed outside the proxy gives its new content', async () => {
    const path = join(root, 'polled.txt');
    writeFileSync(path, 'version 1');
    const { client, session } = await clientV1(proxy);
    const read = () => client.callTool({ name: 'read_text_file', arguments: { path } });
    const results = [];
    for (let index = 0; index < 6; index++) results.push(await read());
    expect(results.slice(0, 3).map(text)).toEqual(['version 1', 'version 1', 'version 1']);
    // The third is the stop: its content with the guard's note beside it.
    expect(results[2]?.content).toHaveLength(2);
    for (const repeat of results.slice(3)) {
      expect(repeat).toEqual({
        content: [
          {
            type: 'text',
            text: expect.stringMatching(
              /^LOOP_DETECTED: This call to read_text_file ran again and gave the same result/,
            ),
          },
        ],
        isError: true,
        _meta: { 'toolwarden/code': 'LOOP_DETECTED' },
      });
    }
    writeFileSync(path, 'version 2');
    const changed = await read();
    expect(changed.isError).toBeUndefined();
    expect(text(changed)).toBe('version 2');
    // Every read went to the server; the repeats answered LOOP_DETECTED are recorded with that code.
    const records = await auditOf(proxy, auditPath, session.sessionId);
    expect(records.map((record) => record.outcome)).toEqual(Array(7).fill('success'));
    expect(records.map((record) => record.code ?? '-')).toEqual([
      '-',
      '-',
      '-',
      'LOOP_DETECTED',
      'LOOP_DETECTED',
      'LOOP_DETECTED',
      '-',
    ]);
    await client.close();
  });

  it('write_file, then edit_file (a tool not listed), then the same write_file: written again', async () => {
    const path = join(root, 'edited.txt');
    const { client } = await clientV1(proxy, () => 'accept');
    const args = { path, content: 'one' };
    await client.callTool({ name: 'write_file', arguments: args });
    const edits = [{ oldText: 'one', newText: 'edited' }];
    expect(await client.callTool({ name: 'edit_file', arguments: { path, edits } })).not.toHaveProperty(
      'isError',
    );
    expect(readFileSync(path, 'utf8')).toBe('edited');
    const again = await client.callTool({ name: 'write_file', arguments: args });
    expect(text(again)).toMatch(/^Successfully wrote to /);
    expect(readFileSync(path, 'utf8')).toBe('one');
    await client.close();
  });

  it("a read outside the allowed folder: the server's isError result, coded, the path the model sent shown, the folder it did not send redacted", async () => {
    const { client } = await clientV1(proxy, () => 'accept');
    const result = await client.callTool({ name: 'read_text_file', arguments: { path: '/etc/passwd' } });
    expect(result).toMatchObject({ isError: true, _meta: { 'toolwarden/code': expect.any(String) } });
    expect(text(result)).toContain('/etc/passwd');
    expect(text(result)).not.toContain(root);
    await client.close();
  });

  it('a missing file: the error shows the path the model sent, so it can correct itself', async () => {
    const { client } = await clientV1(proxy);
    const path = join(root, 'no-such-file.txt');
    const result = await client.callTool({ name: 'read_text_file', arguments: { path } });
    expect(result).toMatchObject({ isError: true, _meta: { 'toolwarden/code': 'TOOL_ERROR' } });
    expect(text(result)).toContain(`'${path}'`);
    await client.close();
  });
});
