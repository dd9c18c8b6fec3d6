// `toolwarden mcp-proxy` as an MCP client runs it: the real bin in a child process over stdio, in front of
// the real server-everything and server-filesystem; and its usage errors, in process.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIo } from './command-io.js';
import { parseMcpProxyArgs, runMcpProxyCommand } from './mcp-proxy-command.js';
import { runCli } from './run-cli.js';

const exec = promisify(execFile);
const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const FILESYSTEM = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);
const TEST_SERVER = fileURLToPath(
  new URL('../adapters/mcp/__fixtures__/stdio-test-server.mjs', import.meta.url),
);
const TIMEOUT_MS = 60_000;

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-proxy-cli-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function bufferIo(): CommandIo & { out: string; err: string } {
  const io = {
    cwd: folder,
    out: '',
    err: '',
    stdout: async (text: string) => {
      io.out += text;
    },
    stderr: async (text: string) => {
      io.err += text;
    },
  };
  return io;
}

/** The real bin in a child process (in `cwd`), in front of `node <server...>`, and an MCP client of it; its stderr kept. */
async function proxyOverStdio(own: readonly string[], server: readonly string[], cwd = folder) {
  const client = new Client({ name: 'cli-test', version: '0' });
  const errors: unknown[] = [];
  client.onerror = (error) => errors.push(error);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX, main, 'mcp-proxy', ...own, '--', process.execPath, ...server],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' },
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await client.connect(transport);
  return { client, errors, stderr: () => stderr };
}

describe('toolwarden mcp-proxy over real stdio', () => {
  it(
    'an MCP client talks to server-everything through it: tools listed, echo passed through, limits applied, audited',
    async () => {
      const config = join(folder, 'toolwarden.json');
      const audit = join(folder, 'audit.jsonl');
      await writeFile(config, JSON.stringify({ limits: { tools: { echo: 1 } }, audit: { jsonl: audit } }));
      const { client, errors, stderr } = await proxyOverStdio(['--config', config], [EVERYTHING, 'stdio']);
      expect(client.getServerVersion()?.name).toBe('toolwarden-mcp-proxy');
      const tools = (await client.listTools()).tools;
      expect(tools.map((tool) => tool.name)).toContain('echo');
      expect(await client.callTool({ name: 'echo', arguments: { message: 'over stdio' } })).toEqual({
        content: [{ type: 'text', text: 'Echo: over stdio' }],
      });
      expect(await client.callTool({ name: 'echo', arguments: { message: 'again' } })).toMatchObject({
        isError: true,
        _meta: { 'toolwarden/code': 'TOOL_CALL_LIMIT' },
      });
      await client.close();
      // Every line of stdout was MCP: the client reported no unparsable message.
      expect(errors).toEqual([]);
      expect(stderr()).not.toContain('Error');
      // Closing the client ended the proxy, which wrote its audit log.
      await expect
        .poll(async () => (await readFile(audit, 'utf8').catch(() => '')).split('\n').length)
        .toBe(3);
      const records = (await readFile(audit, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(records.map((record) => [record.toolName, record.outcome, record.code])).toEqual([
        ['echo', 'success', undefined],
        ['echo', 'invalid-input', 'TOOL_CALL_LIMIT'],
      ]);
    },
    TIMEOUT_MS,
  );

  it(
    'the example config of docs/mcp.md in front of server-filesystem: write_file "one", "two", then "one" again writes three times, and the file holds "one"',
    async () => {
      const readme = await readFile(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
      const section = readme.slice(readme.indexOf('## `toolwarden mcp-proxy` config'));
      const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';
      expect(JSON.parse(example).idempotentWrites.tools).toContain('write_file');
      const cwd = join(folder, 'readme-example');
      const files = join(cwd, 'files');
      await mkdir(files, { recursive: true });
      await writeFile(join(cwd, 'toolwarden.json'), example);
      const { client } = await proxyOverStdio(['--config', 'toolwarden.json'], [FILESYSTEM, files], cwd);
      const path = join(files, 'notes.txt');
      const answers: string[] = [];
      for (const content of ['one', 'two', 'one']) {
        const result = await client.callTool({ name: 'write_file', arguments: { path, content } });
        expect(result.isError).toBeUndefined();
        answers.push((result.content as { text: string }[])[0]?.text ?? '');
        expect(await readFile(path, 'utf8')).toBe(content);
      }
      await client.close();
      // Each was written, none answered from a record ("Already done: ...").
      expect(answers.every((answer) => answer.startsWith('Successfully wrote to'))).toBe(true);
    },
    TIMEOUT_MS,
  );

  it(
    'with no config in front of server-filesystem and a client without elicitation: stderr says what is refused and why; a normal disconnect is no server exit',
    async () => {
      const { client, stderr } = await proxyOverStdio([], [FILESYSTEM, folder]);
      const write = { name: 'write_file', arguments: { path: join(folder, 'refused.txt'), content: 'x' } };
      expect(await client.callTool(write)).toMatchObject({
        isError: true,
        _meta: { 'toolwarden/code': 'PERMISSION_DENIED' },
      });
      await client.callTool(write);
      await client.close();
      const lines = stderr()
        .split('\n')
        .filter((line) => line.startsWith('toolwarden mcp-proxy:'));
      expect(lines).toEqual([
        'toolwarden mcp-proxy: this client cannot ask the user for confirmation (no elicitation): write_file, edit_file, move_file will be refused (PERMISSION_DENIED); set confirm.ifNoElicitation to "allow-and-audit" (runs them unconfirmed, each recorded in the audit log), or list the tools to confirm in confirm.tools, to change this',
        'toolwarden mcp-proxy: refused write_file: it needs the user\'s confirmation (the server marks it destructiveHint: true) and this client cannot ask (no elicitation); set confirm.ifNoElicitation to "allow-and-audit" (runs them unconfirmed, each recorded in the audit log), or list the tools to confirm in confirm.tools, to change this',
      ]);
    },
    TIMEOUT_MS,
  );

  it(
    'a bad config: exit 2, every problem on stderr, nothing on stdout, the server never started',
    async () => {
      const config = join(folder, 'bad.json');
      await writeFile(config, JSON.stringify({ limts: {}, timeouts: { defaultMs: -5 } }));
      const failed = await exec(
        process.execPath,
        ['--import', TSX, main, 'mcp-proxy', '--config', config, '--', 'no-such-server-command'],
        { cwd: folder },
      ).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code).toBe(2);
      expect(failed?.stdout).toBe('');
      expect(failed?.stderr).toContain('(2 problems)');
      expect(failed?.stderr).toContain('$.limts: is not a known key (did you mean "limits"?)');
      expect(failed?.stderr).toContain('$.timeouts.defaultMs');
    },
    TIMEOUT_MS,
  );
});

describe('toolwarden mcp-proxy usage errors', () => {
  it.each([
    [['mcp-proxy', 'node', 'server.js'], 'mcp-proxy needs -- before the server command'],
    [['mcp-proxy', '--config', 'a.json', '--'], 'mcp-proxy needs a server command after --'],
    [['mcp-proxy', '--config', '--', 'node'], '--config needs a file'],
    [['mcp-proxy', '--verbose', '--', 'node'], 'unknown argument for mcp-proxy: --verbose'],
  ])('%j: exit 2 with "%s" on stderr', async (argv, message) => {
    const io = bufferIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err).toContain(message);
    expect(io.err).toContain('Usage: toolwarden mcp-proxy');
    expect(io.out).toBe('');
  });

  it('a config file that does not exist or is not JSON: exit 2, the file named', async () => {
    const io = bufferIo();
    expect(await runCli(['mcp-proxy', '--config', 'missing.json', '--', 'node'], io)).toBe(2);
    expect(io.err).toContain('Invalid config missing.json (1 problem)');
    await writeFile(join(folder, 'broken.json'), '{ "limits": ');
    const again = bufferIo();
    expect(await runCli(['mcp-proxy', '--config', 'broken.json', '--', 'node'], again)).toBe(2);
    expect(again.err).toContain('is not JSON');
  });

  it('a config that is /dev/zero or a 50 MB file: exit 2, refused before it is read', async () => {
    const io = bufferIo();
    expect(await runCli(['mcp-proxy', '--config', '/dev/zero', '--', 'node'], io)).toBe(2);
    expect(io.err).toContain('is not a regular file (a device)');
    await writeFile(join(folder, 'huge.json'), '');
    await truncate(join(folder, 'huge.json'), 50 * 1024 * 1024);
    const huge = bufferIo();
    expect(await runCli(['mcp-proxy', '--config', 'huge.json', '--', 'node'], huge)).toBe(2);
    expect(huge.err).toContain('the file is 52428800 bytes');
  });

  it(
    'a server command that cannot start: exit 1, said on stderr',
    async () => {
      const io = bufferIo();
      expect(await runCli(['mcp-proxy', '--', join(folder, 'no-such-server')], io)).toBe(1);
      expect(io.err).toContain('could not start');
    },
    TIMEOUT_MS,
  );

  it(
    'the server exits while the client is connected: exit 1, said on stderr as it happened',
    async () => {
      const io = bufferIo();
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const exited = runMcpProxyCommand(['--', process.execPath, TEST_SERVER], io, {
        transport: async () => serverSide,
      });
      const client = new Client({ name: 'cli-test', version: '0' });
      // Messages sent before the proxy serves the transport wait in it.
      await client.connect(clientSide);
      await client.callTool({ name: 'exit', arguments: {} });
      expect(await exited).toBe(1);
      expect(io.err).toContain(
        `toolwarden mcp-proxy: the server "${process.execPath}" exited while the client was connected`,
      );
      expect(io.out).toBe('');
    },
    TIMEOUT_MS,
  );

  it("the arguments after -- are the server's, taken as they are (its own --config included)", () => {
    expect(
      parseMcpProxyArgs(['--config', 'a.json', '--', 'npx', '-y', 'server', '--config', 'x', '--']),
    ).toEqual({
      kind: 'run',
      config: 'a.json',
      upstream: { kind: 'command', command: 'npx', args: ['-y', 'server', '--config', 'x', '--'] },
      listen: undefined,
    });
  });
});

describe('toolwarden mcp-proxy --listen (Streamable HTTP)', () => {
  it('refuses to listen without "auth" in the config: exit 2, said how to fix it', async () => {
    const io = bufferIo();
    expect(
      await runCli(['mcp-proxy', '--listen', '127.0.0.1:0', '--', process.execPath, TEST_SERVER], io),
    ).toBe(2);
    expect(io.err).toContain('--listen needs "auth" in the config');
    await writeFile(join(folder, 'open.json'), JSON.stringify({ auth: 'none' }));
    const open = bufferIo();
    expect(
      await runCli(
        ['mcp-proxy', '--config', 'open.json', '--listen', '0.0.0.0:0', '--', process.execPath, TEST_SERVER],
        open,
      ),
    ).toBe(2);
    expect(open.err).toContain('"auth": "none" listens on a loopback address only');
  });

  it(
    'serves clients with a key from a keys file, refuses one without (401), and stops on Ctrl-C (exit 0)',
    async () => {
      const key = 'cli-test-key-0123456789';
      const { createHash } = await import('node:crypto');
      await writeFile(
        join(folder, 'keys.txt'),
        `# keys\ncli ${createHash('sha256').update(key).digest('hex')}\n`,
      );
      await writeFile(join(folder, 'listen.json'), JSON.stringify({ auth: { keysFile: 'keys.txt' } }));
      const abort = new AbortController();
      const io = Object.assign(bufferIo(), { signal: abort.signal });
      const exited = runMcpProxyCommand(
        ['--config', 'listen.json', '--listen', '127.0.0.1:0', '--', process.execPath, TEST_SERVER],
        io,
      );
      const url = await new Promise<string>((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const match = /listening on (\S+)/.exec(io.err);
          if (match !== null) {
            clearInterval(poll);
            resolve(match[1] as string);
          } else if (Date.now() - started > 20_000) {
            clearInterval(poll);
            reject(new Error(`never listened: ${io.err}`));
          }
        }, 50);
      });
      const refused = await fetch(url, { method: 'POST', body: '{}' });
      expect(refused.status).toBe(401);
      const { StreamableHTTPClientTransport } = await import(
        '@modelcontextprotocol/sdk/client/streamableHttp.js'
      );
      const client = new Client({ name: 'cli-http-test', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${key}` } },
        }),
      );
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('exit');
      await client.close();
      abort.abort();
      expect(await exited).toBe(0);
      expect(io.out).toBe('');
    },
    TIMEOUT_MS,
  );
});
