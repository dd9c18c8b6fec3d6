import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { defaultSchemaCompiler } from '../../schema/schema-compiler.js';
import { describeMcpTool, readHints } from './mcp-tool-info.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { proxyToolSettings } from './proxy-tool-settings.js';

const compiler = defaultSchemaCompiler();
const info = (name: string, hasOutputSchema = false) =>
  describeMcpTool(
    { originalName: name, name, title: undefined },
    readHints(undefined),
    false,
    hasOutputSchema,
  );
const settingsOf = (config: unknown, name: string, hasOutputSchema = false) =>
  proxyToolSettings(parseProxyConfig(config, 'test'), compiler)(info(name, hasOutputSchema));
const check = (settings: ReturnType<typeof settingsOf>, value: unknown) =>
  (settings.output as StandardSchemaV1 | undefined)?.['~standard'].validate(value);

describe('proxyToolSettings: what the config sets for a tool in the proxy chain, computed once', () => {
  it('gives each tool its timeout: the tool’s own over the default', () => {
    const config = { timeouts: { defaultMs: 1000, tools: { echo: 50 } } };
    expect(settingsOf(config, 'read_text_file').timeoutMs).toBe(1000);
    expect(settingsOf(config, 'echo').timeoutMs).toBe(50);
  });

  it("checks structuredContent against the server's schema, none, or the config's own schema", () => {
    const config = {
      outputContracts: {
        default: 'none',
        tools: {
          echo: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
          sequentialthinking: 'from-server',
        },
      },
    };
    // `from-server`: the contract `fromMcpClient` makes from the tool's outputSchema (none set here).
    expect(settingsOf(config, 'sequentialthinking', true).output).toBeUndefined();
    // `none`: every result meets it.
    expect(check(settingsOf(config, 'read_text_file'), { content: [], structuredContent: 1 })).toEqual({
      value: { content: [], structuredContent: 1 },
    });
    const own = settingsOf(config, 'echo');
    expect(check(own, { content: [], isError: false, structuredContent: { n: 1 } })).not.toHaveProperty(
      'issues',
    );
    expect(check(own, { content: [], isError: false, structuredContent: {} })).toHaveProperty('issues');
  });

  it('deduplicates only the idempotent writes the config lists', () => {
    const config = { idempotentWrites: { tools: ['create_entities'], ttlMs: 5000 } };
    expect(settingsOf(config, 'create_entities')).toMatchObject({
      effect: 'write',
      idempotency: { ttlMs: 5000 },
    });
    expect(settingsOf(config, 'echo').idempotency).toBe(false);
  });
});
