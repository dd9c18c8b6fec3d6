// `toolwarden run` as a user runs it: the real bin in a child process, the real AI SDK provider, and a
// local fake of OpenAI chat completions (127.0.0.1, no network).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnswer,
  type FakeServer,
  startFakeOpenAiServer,
} from '../adapters/ai-sdk/__fixtures__/fake-openai-server.js';
import { connectSharedPostgres } from '../adapters/postgres/__fixtures__/shared-postgres.js';
import { RUN_EXIT_CODES } from './run-exit-code.js';

const exec = promisify(execFile);
const main = fileURLToPath(new URL('./main.ts', import.meta.url));
/** The TypeScript loader by its location: the child runs in a temp folder, where `tsx` does not resolve. */
const TSX = import.meta.resolve('tsx');
const TIMEOUT_MS = 60_000;

let folder: string;
let server: FakeServer | undefined;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-run-e2e-'));
  await writeFile(
    join(folder, 'tools.mjs'),
    `export const weather = {
  name: 'weather',
  description: 'The weather in a city.',
  effect: 'read',
  input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => ({ city, sky: 'sunny' }),
};
`,
  );
  await writeFile(join(folder, 'broken.mjs'), "import './does-not-exist.mjs';\n");
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runCli(answers: readonly FakeAnswer[], ...args: string[]) {
  server = await startFakeOpenAiServer(answers);
  const argv = ['--import', TSX, main, 'run', '--base-url', server.baseURL, '--model', 'm', ...args];
  try {
    const { stdout, stderr } = await exec(process.execPath, argv, {
      cwd: folder,
      env: { ...process.env, FAKE_KEY: 'sk-fake-123' },
    });
    return { stdout, stderr, code: 0, server };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code, server };
  }
}

describe('toolwarden run against an OpenAI-compatible server', () => {
  it(
    'runs the tool the model calls, prints the answer, and sends the key from the named variable',
    async () => {
      const { stdout, stderr, code, server } = await runCli(
        [{ fixture: 'tool-call.json' }, { fixture: 'answer.json' }],
        '--tools',
        'tools.mjs',
        '--api-key-env',
        'FAKE_KEY',
        'Weather in Paris?',
      );
      expect({ code, stderr }).toMatchObject({ code: 0 });
      expect(stdout).toBe('It is sunny in Paris.\n');
      expect(stderr).toMatch(/round 1: model [\d.]+ ms, 1 tool call · weather [\d.]+ ms ok/);
      expect(stderr).toContain('completed: 2 round trips, 1 tool call, 104 tokens');
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-fake-123');
      // The key is in no argument of the process, nor in what it printed.
      expect(stdout + stderr).not.toContain('sk-fake-123');
    },
    TIMEOUT_MS,
  );

  it(
    'exits 3 when the model asks the same thing again and again: the guard stops it',
    async () => {
      const answers = Array.from({ length: 12 }, () => ({ fixture: 'tool-call.json' }));
      const { stdout, stderr, code, server } = await runCli(
        answers,
        '--tools',
        'tools.mjs',
        '--json',
        'Weather?',
      );
      expect(code).toBe(RUN_EXIT_CODES.loop);
      const outcome = JSON.parse(stdout) as { type: string; reason: string; roundTrips: number };
      expect(outcome).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED' });
      expect(server.requests.length).toBe(outcome.roundTrips);
      expect(server.requests.length).toBeLessThan(12);
      expect(stderr).toContain('stopped (LOOP_DETECTED)');
    },
    TIMEOUT_MS,
  );

  // The provider asks for no wait (retry-after 0), so the retries take no time.
  it.each([
    ['429', 'rate-limited.json', 429, { 'retry-after': '0' }, '429 rate_limit_exceeded'],
    ['500', 'server-error.json', 500, { 'retry-after-ms': '0' }, '500 server_error'],
  ] as const)(
    'a %s every time: retried twice, then exits 1 saying what the provider answered',
    async (_name, fixture, status, headers, said) => {
      const failure = { fixture, status, headers };
      const { code, stdout, stderr, server } = await runCli([failure, failure, failure], 'Weather?');
      expect(code).toBe(RUN_EXIT_CODES.error);
      expect(server.requests).toHaveLength(3);
      expect(stderr).toContain(
        `round 1: asking the model\n  model: ${said}, trying again in 0 ms (attempt 2)\n`,
      );
      expect(stderr).toContain(`  model: ${said}, trying again in 0 ms (attempt 3)\n`);
      expect(stderr).toContain(`stopped (MODEL_ERROR)`);
      expect(stderr).toContain(`  the model provider answered ${said} after 3 attempts\n`);
      expect(stdout).toContain(`the model provider answered ${said} after 3 attempts.`);
    },
    TIMEOUT_MS,
  );

  it(
    'survives a 429 that asks for no wait: the retry answers, exit 0',
    async () => {
      const { code, stdout, server } = await runCli(
        [
          { fixture: 'rate-limited.json', status: 429, headers: { 'retry-after': '0' } },
          { fixture: 'answer.json' },
        ],
        'Weather?',
      );
      expect(code).toBe(0);
      expect(stdout).toBe('It is sunny in Paris.\n');
      expect(server.requests).toHaveLength(2);
    },
    TIMEOUT_MS,
  );

  it(
    'exits 2 when the tools module fails to load, before calling the server',
    async () => {
      const { code, stderr, server } = await runCli([], '--tools', 'broken.mjs', 'Weather?');
      expect(code).toBe(RUN_EXIT_CODES.usage);
      expect(stderr).toContain('broken.mjs');
      expect(server.requests).toHaveLength(0);
    },
    TIMEOUT_MS,
  );
});

describe('toolwarden run --durable (a DBOS workflow on PostgreSQL)', () => {
  const database = `tw_cli_${randomUUID().replaceAll('-', '')}`;
  const url = `postgresql://postgres@127.0.0.1:5432/${database}`;
  beforeAll(async () => {
    const admin = await connectSharedPostgres();
    await admin.query(`CREATE DATABASE "${database}"`);
    await admin.end();
  });
  afterAll(async () => {
    const admin = await connectSharedPostgres();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it(
    'runs the turn as a workflow; the same command again is the same turn (answered from it, no model call); the turn id with another prompt is refused',
    async () => {
      const answers = [{ fixture: 'tool-call.json' }, { fixture: 'answer.json' }] as const;
      const first = await runCli(
        answers,
        '--tools',
        'tools.mjs',
        '--durable',
        url,
        '--turn',
        't1',
        'Weather in Paris?',
      );
      expect(first, first.stderr).toMatchObject({ code: 0, stdout: 'It is sunny in Paris.\n' });
      expect(first.server.requests).toHaveLength(2);
      const again = await runCli(
        answers,
        '--tools',
        'tools.mjs',
        '--durable',
        url,
        '--turn',
        't1',
        'Weather in Paris?',
      );
      expect(again, again.stderr).toMatchObject({ code: 0, stdout: 'It is sunny in Paris.\n' });
      expect(again.server.requests).toHaveLength(0);
      const other = await runCli(
        answers,
        '--tools',
        'tools.mjs',
        '--durable',
        url,
        '--turn',
        't1',
        'Weather in Rome?',
      );
      expect(other.code).toBe(RUN_EXIT_CODES.error);
      expect(other.stderr).toContain('IDEMPOTENCY_CONFLICT');
      expect(other.server.requests).toHaveLength(0);
    },
    TIMEOUT_MS * 2,
  );

  it(
    'refuses --durable with a URL that is not postgres://, and --turn without --durable',
    async () => {
      const bad = await runCli([], '--durable', 'http://x', 'Weather?');
      expect(bad.code).toBe(RUN_EXIT_CODES.usage);
      expect(bad.stderr).toContain('--durable takes a postgres:// URL');
      const alone = await runCli([], '--turn', 't1', 'Weather?');
      expect(alone.code).toBe(RUN_EXIT_CODES.usage);
      expect(alone.stderr).toContain('--session and --turn go with --durable');
    },
    TIMEOUT_MS,
  );
});
