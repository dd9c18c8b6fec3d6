import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../core/model.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { type RunCommandDeps, runRunCommand } from './run-command.js';
import { RUN_EXIT_CODES } from './run-exit-code.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-run-'));
  await writeFile(
    join(folder, 'tools.mjs'),
    `export const getPrice = {
  name: 'getPrice',
  description: 'The price of a product.',
  effect: 'read',
  input: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
  execute: ({ sku }) => ({ sku, price: 12 }),
};
`,
  );
  await writeFile(join(folder, 'broken.mjs'), "throw new Error('the module is broken');\n");
  await writeFile(join(folder, 'none.mjs'), 'export const answer = 42;\n');
  await writeFile(join(folder, 'thenable.mjs'), 'export function then() {}\n');
  await writeFile(join(folder, 'stuck.mjs'), 'await new Promise(() => {});\nexport const never = 1;\n');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const BASE = ['--base-url', 'http://127.0.0.1:1/v1', '--model', 'm'];

async function run(args: string[], model: Model, deps: Omit<RunCommandDeps, 'model'> = {}) {
  let stdout = '';
  let stderr = '';
  const seen: unknown[] = [];
  const code = await runRunCommand(
    args,
    {
      cwd: folder,
      stdout: async (text) => {
        stdout += text;
      },
      stderr: async (text) => {
        stderr += text;
      },
    },
    {
      ...deps,
      model: async (parsed) => {
        seen.push(parsed);
        return model;
      },
    },
  );
  return { code, stdout, stderr, seen };
}

const priceThenAnswer = () =>
  new ScriptedModel({
    script: [
      assistantWithCalls([{ name: 'getPrice', arguments: { sku: 'X-1' } }]),
      { role: 'assistant', content: 'X-1 costs 12.' },
    ],
  });

describe('toolwarden run', () => {
  it('prints the answer on stdout and each round on stderr, and exits 0', async () => {
    const { code, stdout, stderr } = await run(
      [...BASE, '--tools', 'tools.mjs', 'What does X-1 cost?'],
      priceThenAnswer(),
    );
    expect(code).toBe(0);
    expect(stdout).toBe('X-1 costs 12.\n');
    expect(stderr).toMatch(/^round 1: model [\d.]+ ms, 1 tool call · getPrice [\d.]+ ms ok\n/);
    expect(stderr).toMatch(/round 2: model [\d.]+ ms, answer\n/);
    expect(stderr).toMatch(/completed: 2 round trips, 1 tool call/);
  });

  it('rewrites one live line per round on a terminal', async () => {
    const { stderr } = await run([...BASE, '--tools', 'tools.mjs', 'X-1?'], priceThenAnswer(), {
      live: true,
    });
    expect(stderr).toContain('\r\u001b[2Kround 1: model');
    expect(stderr).toContain('\r\u001b[2Kround 2: model');
  });

  it('exits 3 when the guard stops a loop, with the stop on stderr and the fallback text on stdout', async () => {
    const same = assistantWithCalls([{ name: 'getPrice', arguments: { sku: 'X-1' } }]);
    const { code, stdout, stderr } = await run(
      [...BASE, '--tools', 'tools.mjs', 'X-1?'],
      new ScriptedModel({ script: Array.from({ length: 20 }, () => same) }),
    );
    expect(code).toBe(RUN_EXIT_CODES.loop);
    expect(stderr).toContain('stopped (LOOP_DETECTED)');
    expect(stdout.trim()).not.toBe('');
  });

  it('exits 4 at the ceiling of round trips', async () => {
    const script = Array.from({ length: 5 }, (_, i) =>
      assistantWithCalls([{ name: 'getPrice', arguments: { sku: `S-${i}` } }]),
    );
    const { code, stderr } = await run(
      [...BASE, '--tools', 'tools.mjs', '--max-round-trips', '2', 'prices'],
      new ScriptedModel({ script }),
    );
    expect(code).toBe(RUN_EXIT_CODES.limit);
    expect(stderr).toContain('stopped (MAX_ROUND_TRIPS)');
  });

  it('exits 1 when the model fails, and 130 when aborted', async () => {
    const failing: Model = {
      generate: async () => {
        throw new Error('connection refused');
      },
    };
    expect((await run([...BASE, 'hi'], failing)).code).toBe(RUN_EXIT_CODES.error);
    const aborted = new AbortController();
    aborted.abort(new Error('Ctrl-C'));
    expect((await run([...BASE, 'hi'], priceThenAnswer(), { signal: aborted.signal })).code).toBe(
      RUN_EXIT_CODES.aborted,
    );
  });

  it('says what the provider answered, and takes --model-retries and --model-timeout-ms', async () => {
    const limited = Object.assign(new Error('Rate limit reached'), {
      statusCode: 429,
      responseBody: '{"error":{"type":"requests","code":"rate_limit_exceeded"}}',
    });
    const calls: number[] = [];
    const failing: Model = {
      generate: async () => {
        calls.push(1);
        throw limited;
      },
    };
    const { code, stdout, stderr } = await run([...BASE, '--model-retries', '0', 'hi'], failing);
    expect(code).toBe(RUN_EXIT_CODES.error);
    expect(calls).toHaveLength(1);
    expect(stdout).toContain('the model provider answered 429 rate_limit_exceeded.');
    expect(stderr).toContain('stopped (MODEL_ERROR)');
    expect(stderr).toContain('  the model provider answered 429 rate_limit_exceeded\n');
    const hanging: Model = { generate: () => new Promise(() => {}) };
    const timedOut = await run([...BASE, '--model-retries', '0', '--model-timeout-ms', '20', 'hi'], hanging);
    expect(timedOut.code).toBe(RUN_EXIT_CODES.error);
    expect(timedOut.stdout).toContain('the model did not answer within 20 ms.');
  });

  it('prints the outcome as JSON with --json', async () => {
    const { stdout } = await run([...BASE, '--tools', 'tools.mjs', '--json', 'X-1?'], priceThenAnswer());
    expect(JSON.parse(stdout)).toMatchObject({
      type: 'completed',
      text: 'X-1 costs 12.',
      roundTrips: 2,
      toolCalls: 1,
    });
  });

  it('escapes a tool name the model made up in the progress', async () => {
    const model = new ScriptedModel({
      script: [
        assistantWithCalls([{ name: 'evil\u001b[2J', arguments: {} }]),
        { role: 'assistant', content: 'ok' },
      ],
    });
    const { stderr } = await run([...BASE, 'hi'], model);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no escape may reach the terminal.
    expect(stderr).not.toMatch(/\u001b/);
    expect(stderr).toContain('UNKNOWN_TOOL');
  });

  it('takes the API key from the environment variable --api-key-env names, never from a flag', async () => {
    const { seen } = await run([...BASE, '--api-key-env', 'MY_KEY', 'hi'], priceThenAnswer(), {
      env: { MY_KEY: 'sk-test' },
    });
    expect(seen[0]).toMatchObject({ apiKey: 'sk-test', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' });
  });

  it.each([
    [['--model', 'm', 'hi'], 'missing --base-url'],
    [['--base-url', 'ftp://x', '--model', 'm', 'hi'], '--base-url must be an http(s) URL'],
    [['--base-url', 'http://x/v1', 'hi'], 'missing --model'],
    [[...BASE], 'expected one prompt'],
    [[...BASE, 'a', 'b'], 'expected one prompt'],
    [[...BASE, '   '], 'the prompt is empty'],
    [[...BASE, '--api-key-env', 'UNSET_KEY_X', 'hi'], 'UNSET_KEY_X is not set'],
    [[...BASE, '--api-key-env', 'sk-live-123', 'hi'], 'takes the NAME'],
    [[...BASE, '--max-round-trips', '0', 'hi'], '--max-round-trips must be a whole number'],
    [[...BASE, '--time-budget-ms', '1e3', 'hi'], '--time-budget-ms must be a whole number'],
    [[...BASE, '--model-retries=-1', 'hi'], '--model-retries must be a whole number from 0 to 100'],
    [[...BASE, '--model-retries', '101', 'hi'], '--model-retries must be a whole number from 0 to 100'],
    [[...BASE, '--model-timeout-ms', '0', 'hi'], '--model-timeout-ms must be a whole number'],
    [[...BASE, '--api-key', 'sk-1', 'hi'], "Unknown option '--api-key'"],
    [[...BASE, '--tools', 'broken.mjs', 'hi'], 'the module is broken'],
    [[...BASE, '--tools', 'none.mjs', 'hi'], 'exports no tools (its exports: answer)'],
    [[...BASE, '--tools', 'thenable.mjs', 'hi'], 'thenable.mjs exports a function named then'],
    [
      [...BASE, '--tools', 'stuck.mjs', '--load-timeout-ms', '50', 'hi'],
      'importing stuck.mjs did not finish within 50 ms (a top-level await that never settles?)',
    ],
    [[...BASE, '--load-timeout-ms', '0', 'hi'], '--load-timeout-ms must be a whole number'],
    [[...BASE, '--tools', 'missing.mjs', 'hi'], 'no such file'],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const { code, stderr } = await run(args, priceThenAnswer(), { env: {} });
    expect(code).toBe(RUN_EXIT_CODES.usage);
    expect(stderr).toContain(message);
  });
});
