import { describe, expect, it } from 'vitest';
import { ToolwardenError } from '../../core/errors/toolwarden-error.js';
import { parseGatewayConfig, parseGatewayConfigText, upstreamKeyOf } from './gateway-config.js';
import { GatewayConfigError } from './gateway-config-error.js';

function problems(json: unknown): string[] {
  try {
    parseGatewayConfig(json, 'gateway.json');
  } catch (error) {
    if (GatewayConfigError.isInstance(error)) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('parseGatewayConfig', () => {
  it('fills in every default from the one required key', () => {
    const config = parseGatewayConfig({ upstream: { url: 'https://api.openai.com' } }, 'gateway.json');
    expect(config).toMatchObject({
      listen: { host: '127.0.0.1', port: 8787 },
      upstream: { url: 'https://api.openai.com', apiKeyEnv: undefined, apiKeyHeader: 'authorization' },
      limits: { perTool: 40, total: 150, roundTrips: 50, tools: {} },
      tools: {},
      redact: { toolResults: true, arguments: false },
      onStop: 'final-answer',
      store: { kind: 'memory' },
      audit: false,
      telemetry: false,
      timeoutMs: 600_000,
    });
    expect(config.loopGuard).toMatchObject({ repeatLimit: 3, nudge: true });
  });

  it('reads every section', () => {
    const config = parseGatewayConfig(
      {
        listen: { host: '0.0.0.0', port: 0 },
        upstream: {
          url: 'http://127.0.0.1:11434/openai',
          apiKeyEnv: 'OPENAI_API_KEY',
          apiKeyHeader: 'X-Api-Key',
        },
        limits: { perTool: 5, total: 9, roundTrips: 7, tools: { search: 2 } },
        loopGuard: { repeatLimit: 4, nudge: false, hints: { poll: { polled: true } } },
        tools: { getStatus: { effect: 'read' } },
        redact: { arguments: true },
        onStop: 'synthesize',
        store: { redis: 'redis://127.0.0.1:6379' },
        audit: { jsonl: 'audit.jsonl' },
        telemetry: true,
        timeoutMs: 1000,
      },
      'gateway.json',
    );
    expect(config).toMatchObject({
      listen: { host: '0.0.0.0', port: 0 },
      upstream: { apiKeyEnv: 'OPENAI_API_KEY', apiKeyHeader: 'x-api-key' },
      limits: { perTool: 5, total: 9, roundTrips: 7, tools: { search: 2 } },
      loopGuard: { repeatLimit: 4, nudge: false },
      tools: { getStatus: { effect: 'read' } },
      redact: { toolResults: true, arguments: true },
      onStop: 'synthesize',
      store: { kind: 'redis', url: 'redis://127.0.0.1:6379' },
      audit: { kind: 'jsonl', path: 'audit.jsonl' },
      telemetry: true,
      timeoutMs: 1000,
    });
  });

  it('lists every problem with its path, and a suggestion for a near miss', () => {
    expect(
      problems({
        upstream: { url: 'ftp://x', apiKeyEnv: '1BAD' },
        limit: {},
        limits: { perTool: 0, tools: { a: -1 } },
        tools: { t: { effect: 'reads' }, u: {} },
        onStop: 'error',
        store: 'redis',
        audit: { jsonl: 'a', sqlite: 'b' },
        timeoutMs: 3_000_000_000,
      }),
    ).toEqual([
      '$.limit: is not a known key (did you mean "limits"?); known: $schema, listen, upstream, limits, loopGuard, tools, redact, onStop, store, audit, telemetry, timeoutMs, maxRequestBytes, maxResponseBytes',
      '$.upstream.url: must be an http:// or https:// URL, got the string "ftp://x"',
      '$.upstream.apiKeyEnv: must be an environment variable\'s name (letters, digits and _, not starting with a digit), got the string "1BAD"',
      '$.limits.perTool: must be an integer >= 1, got 0',
      '$.limits.tools.a: must be an integer >= 1, got -1',
      '$.tools.t.effect: must be "read" or "write" or "idempotent-write" or "unknown", got the string "reads" (did you mean "read"?)',
      '$.tools.u: needs "effect": "read", "write", "idempotent-write", "unknown"',
      '$.onStop: must be "final-answer" or "synthesize", got the string "error"',
      '$.store: must be "memory", { "sqlite": "<file>" } or { "redis": "<url>" }, got the string "redis"',
      '$.audit: must hold exactly one of "jsonl", "sqlite"',
      '$.timeoutMs: must be an integer between 1 and 2147483647, got 3000000000',
    ]);
    expect(problems({})).toEqual(['$.upstream: is required: { "url": "https://api.openai.com" }']);
    expect(problems({ upstream: { url: 'https://user:pw@api.openai.com' } })).toEqual([
      '$.upstream.url: must be a base URL without credentials, query or fragment (the key goes in apiKeyEnv)',
    ]);
  });

  it('refuses text that is not JSON, and a key variable that is not set, never showing a key', () => {
    const error = (() => {
      try {
        parseGatewayConfigText('{ nope', 'gateway.json');
      } catch (caught) {
        return caught;
      }
    })();
    expect(ToolwardenError.hasCode(error, 'GATEWAY_CONFIG_INVALID')).toBe(true);
    const config = parseGatewayConfig(
      { upstream: { url: 'https://api.openai.com', apiKeyEnv: 'KEY' } },
      'g.json',
    );
    expect(() => upstreamKeyOf(config, {}, 'g.json')).toThrow(
      '$.upstream.apiKeyEnv: names KEY, which is not set',
    );
    expect(upstreamKeyOf(config, { KEY: ' sk-secret ' }, 'g.json')).toEqual({
      header: 'authorization',
      value: 'sk-secret',
    });
    expect(
      upstreamKeyOf(parseGatewayConfig({ upstream: { url: 'https://x.y' } }, 'g'), { KEY: 'k' }, 'g'),
    ).toBeUndefined();
  });
});

describe('upstream.anthropic: a provider of its own for Anthropic’s wire', () => {
  it('reads its URL, key variable and header (x-api-key by default), and its key from the environment', () => {
    const config = parseGatewayConfig(
      {
        upstream: {
          url: 'https://api.openai.com',
          apiKeyEnv: 'OPENAI_API_KEY',
          anthropic: { url: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' },
        },
      },
      'gateway.json',
    );
    expect(config.upstream.anthropic).toEqual({
      url: 'https://api.anthropic.com',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      apiKeyHeader: 'x-api-key',
    });
    const env = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' };
    expect(upstreamKeyOf(config, env, 'gateway.json', 'anthropic')).toEqual({
      header: 'x-api-key',
      value: 'sk-a',
    });
    expect(upstreamKeyOf(config, env, 'gateway.json')).toEqual({ header: 'authorization', value: 'sk-o' });
    expect(() => upstreamKeyOf(config, { OPENAI_API_KEY: 'x' }, 'gateway.json', 'anthropic')).toThrow(
      '$.upstream.anthropic.apiKeyEnv: names ANTHROPIC_API_KEY, which is not set in the environment',
    );
    expect(
      upstreamKeyOf(parseGatewayConfig({ upstream: { url: 'https://x.test' } }, 'g'), {}, 'g', 'anthropic'),
    ).toBeUndefined();
  });

  it('lists every problem of it with its path', () => {
    expect(
      problems({ upstream: { url: 'https://api.openai.com', anthropic: { apiKeyHeader: 'a b', key: 1 } } }),
    ).toEqual([
      '$.upstream.anthropic.key: is not a known key; known: url, apiKeyEnv, apiKeyHeader',
      '$.upstream.anthropic.url: is required: "https://api.anthropic.com"',
    ]);
    expect(
      problems({
        upstream: { url: 'https://api.openai.com', anthropic: { url: 'ftp://x', apiKeyHeader: 'a b' } },
      }),
    ).toEqual([
      '$.upstream.anthropic.url: must be an http:// or https:// URL, got the string "ftp://x"',
      '$.upstream.anthropic.apiKeyHeader: must be a header name (authorization, x-api-key), got the string "a b"',
    ]);
    expect(
      problems({ upstream: { url: 'https://api.openai.com', anthropic: 'https://api.anthropic.com' } }),
    ).toHaveLength(1);
  });
});
