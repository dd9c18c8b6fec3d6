import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { FINAL_TEXT } from './__fixtures__/five-call-turn.js';
import { runWorker, testDatabase } from './__fixtures__/run-worker.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-dbos-outage-'));
const databases: ReturnType<typeof testDatabase>[] = [];
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  for (const db of databases) await db.drop();
});

function testSetup(name: string) {
  const db = testDatabase();
  databases.push(db);
  const effects = join(folder, `${name}.log`);
  return {
    setup: JSON.stringify({ url: db.url, schema: db.schema, effects, version: `outage-${name}` }),
    /** What was done, in order, without the process ids. */
    done: () =>
      readFileSync(effects, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0] ?? ''),
  };
}

/** Every step of the turn once, the charge after the outage: what a turn that failed closed and went on did. */
const FINISHED_AFTER_OUTAGE = [
  'model-0',
  'lookup',
  'store-fail',
  'charge',
  'model-1',
  'reserve',
  'stock',
  'model-2',
  'email',
  'model-3',
];

describe('a durable turn whose database goes away mid-turn', () => {
  it('fails closed (the write waits, nothing runs) and goes on when the database is back', async () => {
    const { setup, done } = testSetup('wait');
    const run = await runWorker('outage-worker.ts', ['wait', setup]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.reports[0]?.outcome).toMatchObject({ type: 'completed', text: FINAL_TEXT, toolCalls: 5 });
    // The charge ran once, after its record could be claimed: not while the database was away.
    expect(done()).toEqual(FINISHED_AFTER_OUTAGE);
  }, 60_000);

  it('fails closed when the process dies during the outage, and the next process resumes the turn', async () => {
    const { setup, done } = testSetup('die');
    const die = await runWorker('outage-worker.ts', ['die', setup]);
    expect(die.code, die.stderr).toBe(1);
    expect(done()).toEqual(['model-0', 'lookup', 'store-fail']);
    const recover = await runWorker('outage-worker.ts', ['recover', setup]);
    expect(recover.code, recover.stderr).toBe(0);
    expect(recover.reports[0]?.outcome).toMatchObject({ type: 'completed', text: FINAL_TEXT, toolCalls: 5 });
    // The read before the outage was checkpointed (DBOS's own database stayed): it did not run again; the
    // charge, refused while its records were away, ran once, in the new process.
    expect(done()).toEqual(FINISHED_AFTER_OUTAGE);
  }, 60_000);

  it('with DBOS’s own database gone too, nothing goes on until it is back; then the turn ends, each write once', async () => {
    const { setup, done } = testSetup('all-down');
    const worker = fileURLToPath(new URL('./__fixtures__/outage-worker.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', worker, 'all-down', setup], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // A test that fails while the database is away leaves no worker waiting for it.
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    let logs = '';
    let whileDown: readonly string[] | undefined;
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      logs += chunk;
      // DBOS says it waits for its database: what ran by then, and the database comes back.
      if (whileDown === undefined && logs.includes('Database connection failed')) {
        whileDown = done();
        child.stdin.write('restore\n');
      }
    });
    expect(await exited, logs.slice(-2000)).toBe(0);
    expect(whileDown).toEqual(['model-0', 'lookup']);
    const outcome = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { outcome?: unknown })
      .find((line) => line.outcome !== undefined)?.outcome;
    expect(outcome).toMatchObject({ type: 'completed', text: FINAL_TEXT, toolCalls: 5 });
    expect(done()).toEqual([
      'model-0',
      'lookup',
      'charge',
      'model-1',
      'reserve',
      'stock',
      'model-2',
      'email',
      'model-3',
    ]);
  }, 90_000);
});
