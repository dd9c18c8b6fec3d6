import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  connectSharedPostgres,
  dropSchema,
  testSchema,
} from '../../postgres/__fixtures__/shared-postgres.js';

/** What a worker process did: its exit code, what it printed, and its stdout lines that are JSON. */
export interface WorkerRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly reports: readonly Record<string, unknown>[];
}

/** Runs `__fixtures__/<worker>` in a process of its own with `args`, to its end. */
export function runWorker(worker: string, args: readonly string[]): Promise<WorkerRun> {
  const path = fileURLToPath(new URL(`./${worker}`, import.meta.url));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path, ...args],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const reports = stdout.split('\n').flatMap((line) => {
          try {
            const value: unknown = JSON.parse(line);
            return typeof value === 'object' && value !== null ? [value as Record<string, unknown>] : [];
          } catch {
            return [];
          }
        });
        const code = error === null ? 0 : ((error as { code?: number }).code ?? null);
        resolve({ code, stdout, stderr, reports });
      },
    );
  });
}

/**
 * A database of the test's own for DBOS (created by DBOS on its first launch) and a schema of its own on
 * the shared database for the runtime's store; `drop` removes both.
 */
export function testDatabase(): { url: string; schema: string; drop(): Promise<void> } {
  const database = `tw_dbos_${randomUUID().replaceAll('-', '')}`;
  const schema = testSchema();
  return {
    url: `postgresql://postgres@127.0.0.1:5432/${database}`,
    schema,
    async drop() {
      const admin = await connectSharedPostgres();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await dropSchema(admin, schema);
      await admin.end();
    },
  };
}
