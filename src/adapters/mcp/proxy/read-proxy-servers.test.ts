import { describe, expect, it } from 'vitest';
import { parseProxyConfig } from './proxy-config.js';
import { ProxyConfigError } from './proxy-config-error.js';

function problemsOf(json: unknown): string[] {
  try {
    parseProxyConfig(json, 'test');
  } catch (error) {
    if (ProxyConfigError.isInstance(error)) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('mcp-proxy config: servers, headers, auth', () => {
  it('reads servers by namespace (stdio and Streamable HTTP), the separator and client keys', () => {
    const config = parseProxyConfig(
      {
        servers: {
          github: {
            url: 'https://example.com/mcp',
            headers: { Authorization: { env: 'GH_TOKEN', prefix: 'Bearer ' }, 'X-Team': 'core' },
          },
          fs: { command: 'npx', args: ['-y', 'server'], env: { pass: ['LANG'] }, reconnect: false },
        },
        namespaceSeparator: '__',
        auth: {
          clients: { 'ci-bot': { env: 'CI_KEY' }, ana: { sha256: 'a'.repeat(64) } },
          keysFile: 'keys.txt',
        },
        upstream: { headers: { 'X-Api-Key': { env: 'KEY' } } },
      },
      'test',
    );
    expect(config.servers.github).toEqual({
      kind: 'http',
      url: 'https://example.com/mcp',
      headers: {
        Authorization: { kind: 'env', name: 'GH_TOKEN', prefix: 'Bearer ' },
        'X-Team': { kind: 'value', value: 'core' },
      },
      reconnect: true,
    });
    expect(config.servers.fs).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', 'server'],
      cwd: undefined,
      env: { pass: ['LANG'], set: {} },
      reconnect: false,
    });
    expect(config.namespaceSeparator).toBe('__');
    expect(config.auth).toEqual({
      kind: 'keys',
      clients: { 'ci-bot': { kind: 'env', name: 'CI_KEY' }, ana: { kind: 'sha256', hash: 'a'.repeat(64) } },
      keysFile: 'keys.txt',
    });
    expect(config.upstream.headers).toEqual({ 'X-Api-Key': { kind: 'env', name: 'KEY', prefix: '' } });
    expect(parseProxyConfig({ auth: 'none' }, 't').auth).toEqual({ kind: 'none' });
    expect(parseProxyConfig({}, 't')).toMatchObject({
      servers: {},
      namespaceSeparator: '.',
      auth: undefined,
    });
  });

  it("reads a header taken from the client's request (fromClient, lowercased), alone", () => {
    const config = parseProxyConfig(
      { servers: { gh: { url: 'https://x', headers: { Authorization: { fromClient: 'X-GitHub-Token' } } } } },
      't',
    );
    expect(config.servers.gh).toMatchObject({
      headers: { Authorization: { kind: 'client', name: 'x-github-token' } },
    });
    expect(
      problemsOf({
        servers: {
          a: { url: 'https://x', headers: { A: { fromClient: 'X-T', env: 'T' } } },
          b: { url: 'https://x', headers: { B: { fromClient: 'bad header' } } },
        },
      }),
    ).toEqual([
      '$.servers.a.headers.A: takes "fromClient" alone, or "env" with "prefix"',
      expect.stringMatching(
        /^\$\.servers\.b\.headers\.B\.fromClient: must be a header name .* got the string "bad header"$/,
      ),
    ]);
  });

  it('lists every problem of a hostile servers section, each with its path', () => {
    expect(
      problemsOf({
        servers: {
          GitHub: { url: 'https://x' },
          'a.b': { url: 'https://x' },
          both: { url: 'https://x', command: 'x' },
          neither: {},
          ftp: { url: 'ftp://x' },
          creds: { url: 'https://user:pw@x/mcp' },
          mixed: { url: 'https://x', args: ['a'] },
          bad: { command: 'x', args: [1, 'ok'], colour: 1, reconnect: 'yes', headers: {} },
          hdr: {
            url: 'https://x',
            headers: {
              'Bad Name': 'x',
              'X-Ok': 'a\r\nInjected: 1',
              'Mcp-Session-Id': 'x',
              'X-Env': { env: '1BAD' },
            },
          },
        },
        namespaceSeparator: '/',
      }),
    ).toEqual([
      '$.servers.GitHub: must be a namespace: a lowercase letter, then up to 31 lowercase letters, digits or "-" (no "." or "_", which separate it from the tool name)',
      '$.servers["a.b"]: must be a namespace: a lowercase letter, then up to 31 lowercase letters, digits or "-" (no "." or "_", which separate it from the tool name)',
      '$.servers.both: must have either "command" (a server spawned over stdio) or "url" (a remote server over Streamable HTTP)',
      '$.servers.neither: must have either "command" (a server spawned over stdio) or "url" (a remote server over Streamable HTTP)',
      '$.servers.ftp.url: must be an http:// or https:// URL, got the string "ftp://x"',
      '$.servers.creds.url: must not hold a user or password: send credentials in "headers", read from the environment',
      '$.servers.mixed.args: belongs to a spawned server ("command"), not to a "url" one',
      '$.servers.bad.colour: is not a known key; known: command, args, cwd, env, url, headers, reconnect',
      '$.servers.bad.reconnect: must be true or false, got the string "yes"',
      '$.servers.bad.headers: belongs to a remote server ("url"), not to a spawned one',
      '$.servers.bad.args[0]: must be a string of at most 32768 characters without NUL, got 1',
      '$.servers.hdr.headers["Bad Name"]: must be a header name (letters, digits and !#$%&\'*+.^_`|~-)',
      '$.servers.hdr.headers.X-Ok: must be a string of at most 8192 characters without control characters, got the string "a\\r\\nInjected: 1"',
      '$.servers.hdr.headers.Mcp-Session-Id: is set by the MCP transport itself',
      '$.servers.hdr.headers.X-Env.env: must be a variable name (letters, digits and _, not starting with a digit), got the string "1BAD"',
      '$.namespaceSeparator: must be "." or "_" or "__", got the string "/" (did you mean "."?)',
    ]);
  });

  it('refuses too many servers or clients, and bad auth entries', () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`s${i}`, { url: 'https://x' }]));
    expect(problemsOf({ servers: many })).toEqual(['$.servers: must list at most 64 servers, got 65']);
    expect(
      problemsOf({
        auth: {
          clients: {
            'has space': { env: 'X' },
            a: { env: 'X', sha256: 'b'.repeat(64) },
            b: { sha256: 'B'.repeat(64) },
            c: {},
          },
        },
      }),
    ).toEqual([
      '$.auth.clients["has space"]: must be a client id: 1 to 64 letters, digits, "_", ".", "@" or "-"',
      '$.auth.clients.a: must have either "env" (the variable holding the key) or "sha256" (the key\'s hash, hex)',
      '$.auth.clients.b.sha256: must be 64 lowercase hex digits, the sha256sum of the key (the value is not shown: it could be the key itself)',
      '$.auth.clients.c: must have either "env" (the variable holding the key) or "sha256" (the key\'s hash, hex)',
    ]);
    expect(problemsOf({ auth: 'open' })).toEqual([
      '$.auth: must be "none" or { "clients": …, "keysFile": … }, got the string "open"',
    ]);
    expect(problemsOf({ auth: {} })).toEqual(['$.auth: must name "clients" or a "keysFile" (or be "none")']);
  });
});
