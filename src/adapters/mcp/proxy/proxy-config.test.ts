import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_IDEMPOTENCY_TTL_MS,
  DEFAULT_PROXY_MAX_CALLS_PER_SESSION,
  DEFAULT_PROXY_MAX_CALLS_PER_TOOL,
  DEFAULT_REPEAT_LIMIT,
  DEFAULT_TIMEOUT_MS,
  MAX_PROXY_CONFIG_PROBLEMS,
  MAX_TIMER_MS,
} from '../../../core/defaults.js';
import { ToolwardenError } from '../../../core/errors/toolwarden-error.js';
import { type ProxyConfig, parseProxyConfig, parseProxyConfigText } from './proxy-config.js';
import { ProxyConfigError } from './proxy-config-error.js';

/** The problems a config has, as `path: message` lines (the error's own list). */
function problemsOf(json: unknown): string[] {
  try {
    parseProxyConfig(json, 'toolwarden.json');
  } catch (error) {
    if (!ProxyConfigError.isInstance(error)) throw error;
    return error.problems.map((problem) => `${problem.path}: ${problem.message}`);
  }
  throw new Error('the config was accepted');
}

const parse = (text: string): ProxyConfig => parseProxyConfigText(text, 'toolwarden.json');

describe('parseProxyConfig: valid configs', () => {
  it('fills every default into an empty config', () => {
    const config = parseProxyConfig({}, 'toolwarden.json');
    expect(config).toMatchObject({
      limits: {
        perTool: DEFAULT_PROXY_MAX_CALLS_PER_TOOL,
        total: DEFAULT_PROXY_MAX_CALLS_PER_SESSION,
        tools: {},
      },
      timeouts: { defaultMs: DEFAULT_TIMEOUT_MS, tools: {} },
      outputContracts: { default: 'from-server', tools: {} },
      redactErrors: true,
      idempotentWrites: {
        tools: [],
        store: { kind: 'memory' },
        ttlMs: DEFAULT_IDEMPOTENCY_TTL_MS,
        scope: undefined,
      },
      confirm: { tools: 'destructive', ifNoElicitation: 'deny' },
      allow: undefined,
      deny: [],
      audit: false,
      telemetry: false,
      trustAnnotations: false,
      upstream: { env: { pass: [], set: {} } },
    });
    expect(config.loopGuard).toMatchObject({ repeatLimit: DEFAULT_REPEAT_LIMIT, nudge: true, hints: {} });
  });

  it('reads the docs example (docs/mcp.md), every key', () => {
    const config = parse(`{
      "$schema": "https://example.com/toolwarden-proxy.json",
      "limits": { "perTool": 50, "total": 300, "tools": { "sequentialthinking": 100 } },
      "loopGuard": { "repeatLimit": 3, "hints": { "sequentialthinking": { "ignoreFields": ["thoughtHistoryLength"] } } },
      "timeouts": { "defaultMs": 20000, "tools": { "search_files": 60000 } },
      "outputContracts": { "default": "from-server", "tools": { "echo": { "type": "object" }, "get-env": "none" } },
      "redactErrors": true,
      "idempotentWrites": { "tools": ["create_entities", "write_file"], "store": { "sqlite": "./toolwarden.db" } },
      "confirm": { "tools": "destructive", "ifNoElicitation": "allow-and-audit" },
      "allow": ["*"],
      "deny": ["move_file", "*_delete"],
      "audit": { "jsonl": "./toolwarden-audit.jsonl" },
      "telemetry": false,
      "trustAnnotations": false,
      "upstream": { "env": { "pass": ["HOME", "LANG"], "set": { "MEMORY_FILE_PATH": "/tmp/memory.jsonl" } } }
    }`);
    expect(config.limits).toEqual({ perTool: 50, total: 300, tools: { sequentialthinking: 100 } });
    expect(config.loopGuard === false ? undefined : config.loopGuard.hints).toEqual({
      sequentialthinking: { ignoreFields: ['thoughtHistoryLength'] },
    });
    expect(config.outputContracts.tools).toEqual({
      echo: { kind: 'schema', schema: { type: 'object' } },
      'get-env': { kind: 'none' },
    });
    expect(config.idempotentWrites.store).toEqual({ kind: 'sqlite', path: './toolwarden.db' });
    expect(config.confirm).toEqual({ tools: 'destructive', ifNoElicitation: 'allow-and-audit' });
    expect(config.deny).toEqual(['move_file', '*_delete']);
    expect(config.audit).toEqual({ kind: 'jsonl', path: './toolwarden-audit.jsonl' });
    expect(config.upstream.env).toEqual({
      pass: ['HOME', 'LANG'],
      set: { MEMORY_FILE_PATH: '/tmp/memory.jsonl' },
    });
  });

  it('accepts the example of docs/mcp.md, and its table names every top-level key', () => {
    const readme = readFileSync(new URL('../../../../docs/mcp.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## `toolwarden mcp-proxy` config'));
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(example).toBeDefined();
    const config = parse(example ?? '');
    expect(config.idempotentWrites.store).toEqual({ kind: 'sqlite', path: './toolwarden.db' });
    const table = section.slice(0, section.indexOf('```json'));
    for (const key of Object.keys(config)) expect(table, key).toContain(`| \`${key}`);
  });

  it('accepts the other forms: guard and confirmation off, a Redis store, a SQLite audit log, a list to confirm', () => {
    const config = parseProxyConfig(
      {
        loopGuard: false,
        confirm: false,
        idempotentWrites: {
          tools: ['set'],
          store: { redis: 'redis://127.0.0.1:6379' },
          ttlMs: 1000,
          scope: 'orders-proxy',
        },
        audit: { sqlite: './audit.db' },
      },
      'x',
    );
    expect(config.loopGuard).toBe(false);
    expect(config.confirm).toBe(false);
    expect(config.idempotentWrites).toEqual({
      tools: ['set'],
      store: { kind: 'redis', url: 'redis://127.0.0.1:6379' },
      ttlMs: 1000,
      scope: 'orders-proxy',
    });
    expect(problemsOf({ idempotentWrites: { scope: '' } })).toEqual([
      '$.idempotentWrites.scope: must be a non-empty string of at most 200 characters, got the string ""',
    ]);
    expect(config.audit).toEqual({ kind: 'sqlite', path: './audit.db' });
    expect(parseProxyConfig({ confirm: { tools: ['write_*'] } }, 'x').confirm).toEqual({
      tools: ['write_*'],
      ifNoElicitation: 'deny',
    });
  });
});

describe('parseProxyConfig: malformed configs', () => {
  it('lists every problem at once, each with its JSON path', () => {
    expect(
      problemsOf({
        limits: { perTool: -1, total: '100', tools: { echo: 0 } },
        timeouts: { defaultMs: MAX_TIMER_MS + 1 },
        redactErrors: 'yes',
        confirm: { tools: 'all', ifNoElicitation: 'ask' },
        deny: 'echo',
        audit: { jsonl: '' },
      }),
    ).toEqual([
      '$.limits.perTool: must be an integer >= 1, got -1',
      '$.limits.total: must be an integer >= 1, got "100"',
      '$.limits.tools.echo: must be an integer >= 1, got 0',
      `$.timeouts.defaultMs: must be an integer between 1 and ${MAX_TIMER_MS}, got ${MAX_TIMER_MS + 1}`,
      '$.redactErrors: must be true or false, got the string "yes"',
      '$.confirm.tools: must be "destructive", got the string "all"',
      '$.confirm.ifNoElicitation: must be "deny" or "allow-and-audit", got the string "ask"',
      '$.deny: must be an array of at most 1000 tool names, got the string "echo"',
      '$.audit.jsonl: must be a non-empty string of at most 4096 characters, got the string ""',
    ]);
  });

  it('names unknown keys, with a suggestion when one is close', () => {
    expect(problemsOf({ limts: {}, timeouts: { defualtMs: 5 }, confirm: { tool: [] }, colour: 1 })).toEqual([
      '$.limts: is not a known key (did you mean "limits"?); known: $schema, limits, loopGuard, timeouts, outputContracts, redactErrors, idempotentWrites, confirm, allow, deny, audit, telemetry, trustAnnotations, upstream, servers, namespaceSeparator, auth, secrets, pins, rateLimits',
      '$.colour: is not a known key; known: $schema, limits, loopGuard, timeouts, outputContracts, redactErrors, idempotentWrites, confirm, allow, deny, audit, telemetry, trustAnnotations, upstream, servers, namespaceSeparator, auth, secrets, pins, rateLimits',
      '$.timeouts.defualtMs: is not a known key (did you mean "defaultMs"?); known: defaultMs, tools',
      '$.confirm.tool: is not a known key (did you mean "tools"?); known: tools, ifNoElicitation',
    ]);
  });

  it('refuses what is not an object at the top, and text that is not JSON', () => {
    for (const value of [null, [], 'x', 42, true])
      expect(problemsOf(value)[0]).toMatch(/^\$: must be an object/);
    expect(() => parse('{"limits": ')).toThrow(
      /Invalid config toolwarden.json \(1 problem\):\n {2}\$: is not JSON/,
    );
  });

  it('checks the loop guard with the rules of loopGuard(), and its hints', () => {
    expect(
      problemsOf({
        loopGuard: { repeatLimit: 1, noProgressRounds: 99, nudge: 1, hints: { echo: { polled: 'yes' } } },
      }),
    ).toEqual([
      '$.loopGuard.repeatLimit: must be an integer >= 2, got 1',
      '$.loopGuard.noProgressRounds: must be an integer between 2 and 32, got 99',
      '$.loopGuard.nudge: must be true or false, got 1',
      '$.loopGuard.hints.echo: polled must be a boolean or { maxUnchanged }',
    ]);
    expect(problemsOf({ loopGuard: true })).toEqual(['$.loopGuard: must be an object, got true']);
  });

  it('refuses stores, output schemas and environments it cannot use', () => {
    expect(
      problemsOf({
        idempotentWrites: { tools: ['a*'], store: { redis: 'http://x' } },
        outputContracts: { default: 'from_server', tools: { a: { type: 'nope' }, b: 3 } },
        upstream: {
          env: { pass: ['PATH', '1X', 'A-B'], set: { OK: 'v', 'BAD NAME': 'v', N: 5, Z: 'a\u0000b' } },
        },
      }),
    ).toEqual([
      '$.outputContracts.default: must be "from-server" or "none", got the string "from_server" (did you mean "from-server"?)',
      expect.stringMatching(/^\$\.outputContracts\.tools\.a: is not a valid JSON Schema: .*type/),
      '$.outputContracts.tools.b: must be "from-server", "none" or a JSON Schema object, got 3',
      '$.idempotentWrites.tools[0]: must be a tool name: "*" patterns belong in allow and deny',
      '$.idempotentWrites.store.redis: must be a redis:// or rediss:// URL',
      '$.upstream.env.pass[1]: must be a variable name (letters, digits and _, not starting with a digit), got the string "1X"',
      '$.upstream.env.pass[2]: must be a variable name (letters, digits and _, not starting with a digit), got the string "A-B"',
      '$.upstream.env.set["BAD NAME"]: must be a variable name (letters, digits and _, not starting with a digit)',
      '$.upstream.env.set.N: must be a string of at most 32768 characters without NUL, got 5',
      '$.upstream.env.set.Z: must be a string of at most 32768 characters without NUL, got the string "a\\u0000b"',
    ]);
    expect(problemsOf({ idempotentWrites: { store: { sqlite: 'a', redis: 'redis://x' } } })).toEqual([
      '$.idempotentWrites.store: must hold exactly one of "sqlite", "redis"',
    ]);
    expect(problemsOf({ idempotentWrites: { store: 'sqlite' } })[0]).toMatch(/must be "memory", \{ "sqlite"/);
    expect(problemsOf({ idempotentWrites: { store: { sqlite: 'a', keyPrefix: 'p:' } } })).toEqual([
      '$.idempotentWrites.store.keyPrefix: is for a Redis store only',
    ]);
    expect(problemsOf({ idempotentWrites: { store: { redis: 'redis://x', keyPrefix: 'a{b}' } } })).toEqual([
      '$.idempotentWrites.store.keyPrefix: must not hold { or } (they would move the hash tag)',
    ]);
    expect(
      parseProxyConfig({ idempotentWrites: { store: { redis: 'redis://x', keyPrefix: 'team-a:' } } }, 't')
        .idempotentWrites.store,
    ).toEqual({ kind: 'redis', url: 'redis://x', keyPrefix: 'team-a:' });
  });

  it('refuses allow-and-audit without an audit log to write the record to', () => {
    expect(problemsOf({ confirm: { ifNoElicitation: 'allow-and-audit' } })).toEqual([
      '$.confirm.ifNoElicitation: "allow-and-audit" needs an audit log to write the record to: set "audit"',
    ]);
  });

  it('is a ToolwardenError with a stable code, the caller to blame', () => {
    let caught: unknown;
    try {
      parseProxyConfig({ limits: 1 }, 'my.json');
    } catch (error) {
      caught = error;
    }
    expect(ProxyConfigError.isInstance(caught)).toBe(true);
    expect(ToolwardenError.hasCode(caught, 'PROXY_CONFIG_INVALID')).toBe(true);
    expect((caught as ProxyConfigError).blame).toBe('caller');
    expect((caught as Error).message).toBe(
      'Invalid config my.json (1 problem):\n  $.limits: must be an object, got 1',
    );
  });
});

describe('parseProxyConfig: hostile configs', () => {
  it('refuses __proto__ keys anywhere and pollutes nothing', () => {
    const json = JSON.parse(
      '{"__proto__": {"polluted": 1}, "limits": {"tools": {"__proto__": 5, "constructor": 7}}, "loopGuard": {"hints": {"__proto__": {}}}}',
    );
    expect(problemsOf(json)).toEqual([
      expect.stringMatching(/^\$\.__proto__: is not a known key/),
      '$.limits.tools.__proto__: the name "__proto__" is not allowed',
      '$.loopGuard.hints.__proto__: the name "__proto__" is not allowed',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const config = parseProxyConfig(
      JSON.parse('{"limits": {"tools": {"constructor": 7, "toString": 2}}}'),
      'x',
    );
    expect(config.limits.tools.constructor).toBe(7);
    expect(config.limits.tools.hasOwnProperty).toBeUndefined();
    expect(config.limits.tools.toString).toBe(2);
  });

  it('names a 10 MB key or value without echoing it', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const error = (() => {
      try {
        parseProxyConfig({ [huge]: 1, limits: { tools: { [huge]: 1 } }, audit: { jsonl: huge } }, 'x');
      } catch (caught) {
        return caught as ProxyConfigError;
      }
      throw new Error('accepted');
    })();
    expect(error.problems).toHaveLength(3);
    expect(error.message.length).toBeLessThan(1200);
    expect(error.message).toContain('(10485760 characters)');
  });

  it('refuses a file over the size cap unread', () => {
    const text = `{"$schema": "${'x'.repeat(1024 * 1024)}"}`;
    expect(() => parse(text)).toThrow(/\$: the file is 1048591 bytes; a config file is at most 1048576/);
  });

  it('survives deep nesting: a deep value, a deep output schema, deep hints', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(problemsOf(JSON.parse(`{"limits": ${deep}}`))).toEqual([
      '$.limits: must be an object, got an array of 1',
    ]);
    const schema = `${'{"items":'.repeat(5_000)}{}${'}'.repeat(5_000)}`;
    expect(problemsOf(JSON.parse(`{"outputContracts": {"tools": {"a": ${schema}}}}`))[0]).toMatch(
      /^\$\.outputContracts\.tools\.a\.items.*nested deeper than 128 levels/,
    );
    const hints = `{"ignoreFields": ${deep}}`;
    expect(problemsOf(JSON.parse(`{"loopGuard": {"hints": {"a": ${hints}}}}`))).toEqual([
      '$.loopGuard.hints.a: ignoreFields must hold non-empty field names of at most 256 characters',
    ]);
  });

  it(`lists at most ${MAX_PROXY_CONFIG_PROBLEMS} problems, then how many more`, () => {
    const json = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`key${index}`, index]));
    try {
      parseProxyConfig(json, 'x');
      throw new Error('accepted');
    } catch (error) {
      const failure = error as ProxyConfigError;
      expect(failure.problems).toHaveLength(MAX_PROXY_CONFIG_PROBLEMS);
      expect(failure.omitted).toBe(10_000 - MAX_PROXY_CONFIG_PROBLEMS);
      expect(failure.message).toMatch(/^Invalid config x \(10000 problems\):/);
      expect(failure.message).toMatch(/… and 9900 more$/);
    }
  });

  it('refuses lists past their cap and names that are not names', () => {
    expect(problemsOf({ deny: Array.from({ length: 1001 }, () => 'a') })).toEqual([
      '$.deny: must be an array of at most 1000 tool names, got an array of 1001',
    ]);
    expect(problemsOf({ allow: ['', 3, 'x'.repeat(257)] })).toEqual([
      '$.allow[0]: must be a tool name (1 to 256 characters), got the string ""',
      '$.allow[1]: must be a tool name (1 to 256 characters), got 3',
      expect.stringMatching(/^\$\.allow\[2\]: must be a tool name .*\(257 characters\)$/),
    ]);
  });
});
