import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fact } from '../run-reference-probe.js';

/** The worker: this folder's script, run through tsx when this module is TypeScript (tests). */
const HERE = fileURLToPath(import.meta.url);
const WORKER = join(HERE, '..', `durable-demo-worker${extname(HERE)}`);
const WORKER_ARGS = extname(HERE) === '.ts' ? ['--import', 'tsx', WORKER] : [WORKER];

interface WorkerLine {
  readonly ran?: string;
  readonly checkpointed?: string;
  readonly kill?: boolean;
  readonly outcome?: { readonly type: string; readonly text: string };
  readonly steps?: readonly string[];
}

/**
 * A durable turn killed mid-way and resumed, end to end, on the PostgreSQL at `url` (a database and a
 * schema of the demo's own, dropped after): a worker process runs a turn (read an order, refund it, email
 * the customer) as a DBOS workflow and is killed (SIGKILL) once the refund's step is checkpointed; a second
 * worker launches, DBOS recovers the turn, and it goes on from the first unfinished step. Every fact is read
 * off what the workers reported.
 */
export async function runDurableDemo(url: string): Promise<Fact[]> {
  const facts: Fact[] = [];
  const fact = (key: string, value: unknown) => facts.push([key, String(value)]);
  const name = `toolwarden_demo_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const server = new URL(url);
  const systemUrl = Object.assign(new URL(url), { pathname: `/${name}` }).toString();
  const pg = (await import('pg')).default;
  const admin = new pg.Pool({ connectionString: server.toString(), max: 1 });
  admin.on('error', () => {});
  const args = [systemUrl, server.toString(), name];
  try {
    const first = await runWorker('start', args, true);
    fact('database', `${systemUrl.replace(/\/\/[^@/]*@/, '//')} (the demo's own, dropped after)`);
    fact('worker-1-pid', first.pid);
    fact('worker-1-ran', ran(first.lines).join(', '));
    fact('worker-1', `killed (SIGKILL) after its step tool:refundOrder was checkpointed`);
    const second = await runWorker('recover', args, false);
    const end = second.lines.find((line) => line.outcome !== undefined);
    fact('worker-2-pid', second.pid);
    const skipped = (end?.steps ?? []).slice(0, checkpointed(first.lines).length);
    fact('worker-2-skipped', `${skipped.join(', ')} (checkpointed by worker 1: not run again)`);
    fact('worker-2-ran', ran(second.lines).join(', '));
    const refunds = [...first.lines, ...second.lines].filter((line) => line.ran === 'refundOrder').length;
    fact('refunds', refunds);
    fact('outcome', `${end?.outcome?.type}: ${end?.outcome?.text}`);
    fact('steps', (end?.steps ?? []).join(', '));
    return facts;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => {});
    await admin.end();
  }
}

const ran = (lines: readonly WorkerLine[]) =>
  lines.flatMap((line) => (line.ran === undefined ? [] : [line.ran]));
const checkpointed = (lines: readonly WorkerLine[]) =>
  lines.flatMap((line) => (line.checkpointed === undefined ? [] : [line.checkpointed]));

/** Runs the worker to its end, or, with `kill`, until it asks to be killed: then SIGKILL. */
function runWorker(
  mode: string,
  args: readonly string[],
  kill: boolean,
): Promise<{ pid: number | undefined; lines: WorkerLine[] }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...WORKER_ARGS, mode, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: WorkerLine[] = [];
    let stderr = '';
    let rest = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${chunk}`.slice(-4000);
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const parts = `${rest}${chunk}`.split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) {
        try {
          const line = JSON.parse(part) as WorkerLine;
          lines.push(line);
          if (kill && line.kill === true) child.kill('SIGKILL');
        } catch {
          // DBOS logs on stdout too: only the worker's JSON lines count.
        }
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const asked = kill ? signal === 'SIGKILL' : code === 0;
      if (asked) resolve({ pid: child.pid, lines });
      else reject(new Error(`the demo's worker (${mode}) ended with ${signal ?? code}: ${stderr.trim()}`));
    });
  });
}
