import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { connectSharedPostgres, dropSchema, testSchema } from '../postgres/__fixtures__/shared-postgres.js';

const worker = fileURLToPath(new URL('./__fixtures__/durable-worker.ts', import.meta.url));

/** Runs the worker in a process of its own: its exit code and what it printed. */
function runWorker(mode: string, url: string, effects: string, schema: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', worker, mode, url, effects, schema],
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), stdout, stderr });
      },
    );
  });
}

describe('durableTurns on DBOS and PostgreSQL', () => {
  const database = `tw_dbos_${randomUUID().replaceAll('-', '')}`;
  const url = `postgresql://postgres@127.0.0.1:5432/${database}`;
  const databases = [database];
  const folder = mkdtempSync(join(tmpdir(), 'tw-dbos-'));
  // toolwarden's own records (idempotency, limits) in a PostgreSQL store shared by the processes.
  const schema = testSchema();
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    const admin = await connectSharedPostgres();
    for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await dropSchema(admin, schema);
    await admin.end();
  });

  it('recovers a turn whose process died after a tool step: the finished tool never runs again', async (context) => {
    const effects = join(folder, 'effects.log');
    const start = await runWorker('start', url, effects, '');
    expect(start.code, start.stderr).toBe(1);
    const recover = await runWorker('recover', url, effects, '');
    expect(recover.code, recover.stderr).toBe(0);
    const lines = readFileSync(effects, 'utf8').trim().split('\n');
    context.annotate(lines.join('; '));
    const [first, second] = [...new Set(lines.map((line) => line.split(' ')[1]))];
    const by = (pid: string | undefined) =>
      lines.filter((line) => line.endsWith(` ${pid}`)).map((line) => line.split(' ')[0]);
    // The first process: the model's first answer, the charge, then it died asking the model again.
    expect(by(first)).toEqual(['model-0', 'charge', 'model-1']);
    // The second: the first answer and the charge were checkpointed; it asked the model again and went on.
    expect(by(second)).toEqual(['model-1', 'email', 'model-2']);
    // DBOS logs to stdout too: the outcome is the worker's last line.
    const outcome = recover.stdout.trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(outcome)).toEqual({
      type: 'completed',
      text: 'charged and emailed',
      steps: ['model', 'tool:charge', 'model', 'tool:email', 'model'],
    });
  }, 120_000);

  // Known limit of this first part: with the runtime's records in a shared store, the recovered turn finds the
  // charge's idempotency record and answers it from there without its step, so DBOS sees another step at
  // that place and refuses to go on. It fails closed (the charge does not run twice); the fix is a hook
  // around the record and the execution together (see the report of issue 27).
  it('with a shared store, a recovered turn stops at the replayed write instead of running it twice', async () => {
    const database2 = `${database}_shared`;
    const url2 = url.replace(database, database2);
    databases.push(database2);
    const effects = join(folder, 'effects-shared.log');
    const start = await runWorker('start', url2, effects, schema);
    expect(start.code, start.stderr).toBe(1);
    const recover = await runWorker('recover', url2, effects, schema);
    expect(recover.code).not.toBe(0);
    expect(recover.stdout + recover.stderr).toContain('DBOSUnexpectedStepError');
    const lines = readFileSync(effects, 'utf8').trim().split('\n');
    expect(lines.filter((line) => line.startsWith('charge '))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('email '))).toHaveLength(0);
  }, 120_000);
});
