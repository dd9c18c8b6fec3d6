import { describe, expect, it } from 'vitest';
import { parseMcpProxyArgs } from './mcp-proxy-command.js';

describe('parseMcpProxyArgs', () => {
  it("reads the upstream (a command after --, --url, or the config's servers) and --listen", () => {
    expect(parseMcpProxyArgs(['--listen', '127.0.0.1:8080', '--', 'node', 's.js'])).toEqual({
      kind: 'run',
      config: undefined,
      upstream: { kind: 'command', command: 'node', args: ['s.js'] },
      listen: { host: '127.0.0.1', port: 8080 },
    });
    expect(parseMcpProxyArgs(['--url=https://x.example/mcp', '--listen', '[::1]:0'])).toEqual({
      kind: 'run',
      config: undefined,
      upstream: { kind: 'url', url: 'https://x.example/mcp' },
      listen: { host: '::1', port: 0 },
    });
    expect(parseMcpProxyArgs(['--config', 'c.json'])).toEqual({
      kind: 'run',
      config: 'c.json',
      upstream: { kind: 'servers' },
      listen: undefined,
    });
  });

  it.each([
    [['--listen', '8080', '--', 'x'], '--listen needs HOST:PORT (127.0.0.1:8080, [::1]:8080)'],
    [['--listen', 'h:99999', '--', 'x'], '--listen needs HOST:PORT (127.0.0.1:8080, [::1]:8080)'],
    [['--listen', '--', 'x'], '--listen needs HOST:PORT'],
    [['--url', 'ftp://x'], '--url needs an http:// or https:// URL'],
    [['--url', 'https://x', '--', 'node'], 'mcp-proxy takes --url or a server command after --, not both'],
    [[], 'mcp-proxy needs -- before the server command'],
  ])('%j is a usage error: %s', (argv, message) => {
    const parsed = parseMcpProxyArgs(argv);
    expect(parsed.kind).toBe('usage-error');
    expect(parsed.kind === 'usage-error' ? parsed.message : '').toContain(message);
  });
});
