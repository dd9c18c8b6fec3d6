import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** Calls per turn in the latency part, one a round. */
const CALLS = 10;
const WORKER = fileURLToPath(new URL('./durable-worker.ts', import.meta.url));

function worker(args: readonly string[]): Promise<{ code: number | null; lines: unknown[] }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', WORKER, ...args],
      { maxBuffer: 1 << 24 },
      (error, stdout) => {
        const lines = stdout.split('\n').flatMap((line) => {
          try {
            return [JSON.parse(line) as unknown];
          } catch {
            return [];
          }
        });
        resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), lines });
      },
    );
  });
}

interface LatencyRow {
  readonly name: string;
  readonly microsPerCall: number;
  readonly queriesPerTurn: number;
}

/**
 * A guarded write call inside a durable turn (a DBOS workflow, the records in the PostgreSQL store) beside
 * the same turn on the memory store, on Redis and on the PostgreSQL store without DBOS; then the recovery of
 * 1 and 100 turns a crashed process left unfinished. Each part in a process of its own (DBOS is one per
 * process), on a database and schema of its own, dropped after.
 */
export async function benchDurable(): Promise<string[]> {
  const lines = [
    `## Durable turns (toolwarden/dbos on PostgreSQL): a turn of ${CALLS} write calls, one a round`,
    '',
  ];
  const admin = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres', max: 1 });
  const made: string[] = [];
  const fresh = () => {
    const name = `tw_bench_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    made.push(name);
    return [`postgresql://postgres@127.0.0.1:5432/${name}`, name] as const;
  };
  try {
    const latency = await worker(['latency', ...fresh(), '1', String(CALLS)]);
    const rows = (latency.lines[0] ?? []) as LatencyRow[];
    const memory = rows.find((row) => row.name === 'memory')?.microsPerCall ?? Number.NaN;
    lines.push(
      '| store / driver | µs per guarded call (median) | added vs memory | PostgreSQL queries per turn | per step |',
    );
    lines.push('| --- | ---: | ---: | ---: | ---: |');
    for (const row of rows) {
      // A plain turn has a step per call (the model's aside); a durable turn a step per call and per model
      // call, and two of the store (the guard's memory loaded and saved).
      const steps = row.name.startsWith('dbos') ? 2 * CALLS + 3 : CALLS;
      lines.push(
        `| ${row.name} | ${row.microsPerCall.toFixed(0)} | ${(row.microsPerCall - memory).toFixed(0)} | ${row.queriesPerTurn} | ${(row.queriesPerTurn / steps).toFixed(1)} |`,
      );
    }
    lines.push(
      '',
      '| unfinished turns at the crash | DBOS.launch() ms | all recovered and finished, ms |',
      '| ---: | ---: | ---: |',
    );
    for (const turns of [1, 100]) {
      const database = fresh();
      const crash = await worker(['crash', ...database, String(turns)]);
      if (crash.code !== 1) throw new Error(`the crash process ended with ${crash.code}`);
      const recover = await worker(['recover', ...database, String(turns)]);
      const found = recover.lines[0] as { launchMs: number; totalMs: number } | undefined;
      lines.push(`| ${turns} | ${found?.launchMs.toFixed(0)} | ${found?.totalMs.toFixed(0)} |`);
    }
  } finally {
    for (const name of made) {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    }
    await admin.end();
  }
  return lines;
}
