import { describe, expect, it } from 'vitest';
import { singleServerName } from './proxy-screen-of.js';

describe('singleServerName: the one upstream as the pins, the audit and the log name it', () => {
  it("keeps a URL's origin and path, never its credentials or query", () => {
    expect(singleServerName({ url: 'https://user:pw@mcp.example.com/v1/mcp?token=abc#x' })).toBe(
      'https://mcp.example.com/v1/mcp',
    );
  });

  it('names a command by its last segment and a digest of the whole line (an argument may hold a token)', () => {
    const name = singleServerName({ command: '/usr/bin/node', args: ['server.js', '--token', 'sk-secret'] });
    expect(name).toMatch(/^node#[0-9a-f]{12}$/);
    expect(name).not.toContain('sk-secret');
    expect(singleServerName({ command: '/usr/bin/node', args: ['server.js', '--token', 'other'] })).not.toBe(
      name,
    );
    expect(singleServerName({ command: 'C:\\tools\\server.exe' })).toMatch(/^server\.exe#/);
  });
});
