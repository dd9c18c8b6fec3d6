// The config keys of secrets, pins and rate limits: defaults, and hostile values answered with every problem.
import { describe, expect, it } from 'vitest';
import { parseProxyConfig } from './proxy-config.js';
import { ProxyConfigError } from './proxy-config-error.js';

function problemsOf(json: unknown): string[] {
  try {
    parseProxyConfig(json, 'test');
  } catch (error) {
    if (!ProxyConfigError.isInstance(error)) throw error;
    return error.problems.map((problem) => `${problem.path}: ${problem.message}`);
  }
  return [];
}

const DIGEST = `sha256:${'ab'.repeat(32)}`;

describe('secrets, pins and rateLimits in the config', () => {
  it('defaults: secrets in arguments blocked, in results redacted; changed definitions refused; no rate limit', () => {
    const config = parseProxyConfig({}, 'test');
    expect(config.secrets).toEqual({ arguments: 'block', results: 'redact', tools: {} });
    expect(config.pins).toEqual({ onChange: 'refuse', approve: {} });
    expect(config.rateLimits).toEqual({ perClient: undefined, tools: {} });
  });

  it('reads every key: per tool actions by name or pattern, approvals, windows per client and per tool', () => {
    const config = parseProxyConfig(
      {
        secrets: { results: 'audit', tools: { 'vault.*': 'off', 'fs.read': { arguments: 'redact' } } },
        pins: { onChange: 'flag', approve: { 'gh.create_issue': DIGEST, 'gh.echo': [DIGEST] } },
        rateLimits: {
          perClient: { perMinute: 60 },
          tools: { 'gh.*': { perHour: 100, per: 'proxy' }, 'gh.create_issue': { perMinute: 5 } },
        },
      },
      'test',
    );
    expect(config.secrets).toEqual({
      arguments: 'block',
      results: 'audit',
      tools: { 'vault.*': { arguments: 'off', results: 'off' }, 'fs.read': { arguments: 'redact' } },
    });
    expect(config.pins).toEqual({
      onChange: 'flag',
      approve: { 'gh.create_issue': [DIGEST], 'gh.echo': [DIGEST] },
    });
    expect(config.rateLimits).toEqual({
      perClient: { perMinute: 60, perHour: undefined },
      tools: {
        'gh.*': { perMinute: undefined, perHour: 100, per: 'proxy' },
        'gh.create_issue': { perMinute: 5, perHour: undefined, per: 'client' },
      },
    });
    expect(parseProxyConfig({ secrets: false, pins: false }, 'test')).toMatchObject({
      secrets: false,
      pins: false,
    });
  });

  it('lists every problem of hostile values, with its path and a did-you-mean', () => {
    expect(
      problemsOf({
        secrets: { argument: 'block', results: 'drop', tools: { x: 3, y: { result: 'off' } } },
        pins: { onChange: 'allow', approve: { a: 'md5:1', b: [], c: [DIGEST, DIGEST.toUpperCase()] } },
        rateLimits: {
          perClient: { perMinute: 0, perSecond: 2 },
          tools: { t: {}, u: { perHour: 1.5 }, v: { perMinute: 1, per: 'session' } },
        },
      }),
    ).toEqual([
      '$.secrets.argument: is not a known key (did you mean "arguments"?); known: arguments, results, tools',
      '$.secrets.results: must be "block" or "redact" or "audit" or "off", got the string "drop"',
      '$.secrets.tools.x: must be "block", "redact", "audit", "off" or { "arguments", "results" }, got 3',
      '$.secrets.tools.y.result: is not a known key (did you mean "results"?); known: arguments, results',
      '$.pins.onChange: must be "refuse" or "flag", got the string "allow"',
      '$.pins.approve.a: must be a digest ("sha256:" and 64 lowercase hex digits), got the string "md5:1"',
      '$.pins.approve.b: must be a digest ("sha256:" and 64 hex digits) or an array of 1 to 16, got an array of 0',
      expect.stringMatching(/^\$\.pins\.approve\.c\[1\]: must be a digest .*got the string "SHA256:ABAB/),
      '$.rateLimits.perClient.perSecond: is not a known key; known: perMinute, perHour',
      expect.stringMatching(/^\$\.rateLimits\.perClient\.perMinute: must be an integer/),
      '$.rateLimits.tools.t: must set "perMinute", "perHour" or both',
      expect.stringMatching(/^\$\.rateLimits\.tools\.u\.perHour: must be an integer/),
      '$.rateLimits.tools.v.per: must be "client" or "proxy", got the string "session"',
    ]);
  });

  it('refuses wrong types for the sections themselves', () => {
    expect(problemsOf({ secrets: 'block', pins: true, rateLimits: [] })).toEqual([
      '$.secrets: must be an object, got the string "block"',
      '$.pins: must be an object, got true',
      '$.rateLimits: must be an object, got an array of 0',
    ]);
  });
});
