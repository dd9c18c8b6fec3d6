import { describe, expect, it } from 'vitest';
import { isWriteTool, proxyToolEffect, refusedUnrunWhenStopped } from './mcp-tool-info.js';
import { CREATE_ENTITIES, ECHO, READ_FILE, WRITE_FILE } from './proxy/__fixtures__/mcp-tools.js';
import { parseProxyConfig } from './proxy/proxy-config.js';

const untrusted = parseProxyConfig({ idempotentWrites: { tools: ['create_entities'] } }, 'test');
const trusted = parseProxyConfig({ trustAnnotations: true }, 'test');

describe('the effects of the proxied tools', () => {
  it("follows the effects model: an untrusted server's tools are unknown, a trusted one's hints decide", () => {
    expect(proxyToolEffect('read_text_file', READ_FILE, untrusted)).toBe('unknown');
    expect(proxyToolEffect('create_entities', CREATE_ENTITIES, untrusted)).toBe('write');
    expect(proxyToolEffect('read_text_file', READ_FILE, trusted)).toBe('read');
    expect(proxyToolEffect('write_file', WRITE_FILE, trusted)).toBe('idempotent-write');
    expect(proxyToolEffect('echo', ECHO, trusted)).toBe('write');
  });

  it('the loop guard takes every tool but a read as a change (the unknown included); an unlisted name is none', () => {
    expect(isWriteTool('read_text_file', READ_FILE, untrusted)).toBe(true);
    expect(isWriteTool('echo', ECHO, untrusted)).toBe(true);
    expect(isWriteTool('read_text_file', READ_FILE, trusted)).toBe(false);
    expect(isWriteTool('create_entities', undefined, untrusted)).toBe(false);
  });

  it('refuses a stopped call unrun only for a write or a tool that says it is destructive', () => {
    expect(refusedUnrunWhenStopped('read_text_file', READ_FILE, untrusted)).toBe(false);
    expect(refusedUnrunWhenStopped('echo', ECHO, untrusted)).toBe(false);
    expect(refusedUnrunWhenStopped('write_file', WRITE_FILE, untrusted)).toBe(true);
    expect(refusedUnrunWhenStopped('create_entities', CREATE_ENTITIES, untrusted)).toBe(true);
    expect(refusedUnrunWhenStopped('read_text_file', READ_FILE, trusted)).toBe(false);
    expect(refusedUnrunWhenStopped('echo', ECHO, trusted)).toBe(true);
  });
});
