import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FINAL_TEXT } from './__fixtures__/five-call-turn.js';
import { runWorker, testDatabase } from './__fixtures__/run-worker.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-dbos-'));
const databases: ReturnType<typeof testDatabase>[] = [];
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  for (const db of databases) await db.drop();
});

/** A database and schema of the test's own, an effects file, and the setup a worker takes. */
function testSetup(name: string, extra: Record<string, unknown> = {}) {
  const db = testDatabase();
  databases.push(db);
  const effects = join(folder, `${name}.log`);
  const setup = (more: Record<string, unknown> = {}) =>
    JSON.stringify({ url: db.url, schema: db.schema, effects, ...extra, ...more });
  const lines = () => readFileSync(effects, 'utf8').trim().split('\n');
  return { setup, lines };
}

/** The effects each process made, by process id, in order (`<what> <session> <pid>` lines). */
function byProcess(lines: readonly string[]): string[][] {
  const pids = [...new Set(lines.map((line) => line.split(' ')[2]))];
  return pids.map((pid) =>
    lines.filter((line) => line.endsWith(` ${pid}`)).map((line) => line.split(' ')[0] ?? ''),
  );
}

describe('durableTurns: a reused turn id', () => {
  it('with the same input joins the turn; with other input is refused as an idempotency conflict', async () => {
    const { setup, lines } = testSetup('conflict', { version: 'conflict-test' });
    const run = await runWorker('turn-worker.ts', ['conflict', setup()]);
    expect(run.code, run.stderr).toBe(0);
    const [answers] = run.reports as { first: { ok: unknown }; again: { ok: unknown }; other: unknown }[];
    expect(answers?.first.ok).toMatchObject({ type: 'completed', text: FINAL_TEXT });
    expect(answers?.again.ok).toEqual(answers?.first.ok);
    expect(answers?.other).toEqual({
      error: { name: 'IdempotencyError', code: 'IDEMPOTENCY_CONFLICT', reason: 'conflict' },
    });
    // The turn ran once: the second run and the refused one ran nothing.
    expect(lines().filter((line) => line.startsWith('charge '))).toHaveLength(1);
  }, 60_000);
});

describe('durableTurns: limits across a crash', () => {
  it('a session limit of exactly the turn’s calls holds: the recovered turn does not count its replayed calls again', async () => {
    const limits = { perSession: { total: 5 } };
    const { setup, lines } = testSetup('limits', { version: 'limits-test', limits });
    const start = await runWorker('turn-worker.ts', ['die-at-model-1', setup()]);
    expect(start.code, start.stderr).toBe(1);
    const recover = await runWorker('turn-worker.ts', ['recover', setup()]);
    expect(recover.code, recover.stderr).toBe(0);
    expect(recover.reports[0]?.outcome).toMatchObject({ type: 'completed', text: FINAL_TEXT, toolCalls: 5 });
    const work = byProcess(lines()).flat();
    for (const tool of ['lookup', 'charge', 'reserve', 'stock', 'email']) {
      expect(
        work.filter((what) => what === tool),
        tool,
      ).toHaveLength(1);
    }
  }, 90_000);
});

describe('durableTurns across a deploy (DBOS application version)', () => {
  it('unpinned: a new deploy does not recover an older unfinished turn; the old code does', async () => {
    const { setup, lines } = testSetup('unpinned');
    const start = await runWorker('turn-worker.ts', ['die-at-model-1', setup()]);
    expect(start.code, start.stderr).toBe(1);
    const deploy = await runWorker('turn-worker.ts', ['new-deploy', setup()]);
    expect(deploy.code, deploy.stderr).toBe(0);
    const [seen] = deploy.reports as { status: string; version: string; current: string }[];
    expect(seen?.status).toBe('PENDING');
    expect(seen?.version).not.toBe(seen?.current);
    const old = await runWorker('turn-worker.ts', ['recover', setup()]);
    expect(old.code, old.stderr).toBe(0);
    expect(old.reports[0]?.outcome).toMatchObject({ type: 'completed', text: FINAL_TEXT });
    // The new deploy ran nothing; the old code went on after the first round.
    expect(byProcess(lines())).toEqual([
      ['model-0', 'lookup', 'charge', 'model-1'],
      ['model-1', 'reserve', 'stock', 'model-2', 'email', 'model-3'],
    ]);
  }, 90_000);

  it('pinned (applicationVersion): a new deploy recovers the older unfinished turn', async () => {
    const { setup, lines } = testSetup('pinned', { version: 'support-agent-1' });
    const start = await runWorker('turn-worker.ts', ['die-at-model-1', setup()]);
    expect(start.code, start.stderr).toBe(1);
    const deploy = await runWorker('turn-worker.ts', ['new-deploy', setup()]);
    expect(deploy.code, deploy.stderr).toBe(0);
    const [seen] = deploy.reports as { version: string; current: string }[];
    expect(seen?.version).toBe('support-agent-1');
    expect(seen?.current).toBe('support-agent-1');
    const recover = await runWorker('turn-worker.ts', ['recover', setup()]);
    expect(recover.reports[0]?.outcome).toMatchObject({ type: 'completed', text: FINAL_TEXT });
    const work = byProcess(lines()).flat();
    for (const tool of ['lookup', 'charge', 'reserve', 'stock', 'email']) {
      expect(
        work.filter((what) => what === tool),
        tool,
      ).toHaveLength(1);
    }
  }, 90_000);
});

describe('durableTurns: approvals as durable waits', () => {
  it('across three processes: one waits and dies, one decides with a DBOS client, one resumes', async () => {
    const { setup, lines } = testSetup('approvals', { version: 'approvals-test', approvals: ['charge'] });
    const wait = await runWorker('turn-worker.ts', ['wait', setup()]);
    expect(wait.code, wait.stderr).toBe(1);
    expect(wait.reports[0]?.approval).toMatchObject({
      state: 'waiting',
      round: 1,
      pending: [{ toolCallId: 'call-charge', toolName: 'charge' }],
    });
    const approve = await runWorker('turn-worker.ts', ['approve', setup()]);
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.reports[0]).toMatchObject({
      wrongDigest: { error: { name: 'ApprovalError', reason: 'arguments-changed' } },
      approved: { ok: 'done' },
    });
    // Nothing ran while the turn waited: the read of its round ran, the charge did not.
    expect(lines().filter((line) => line.startsWith('charge '))).toHaveLength(0);
    const resume = await runWorker('turn-worker.ts', ['recover', setup()]);
    expect(resume.code, resume.stderr).toBe(0);
    const outcome = resume.reports[0]?.outcome as {
      type: string;
      messages: { toolCallId?: string; content: string }[];
    };
    expect(outcome).toMatchObject({ type: 'completed', text: FINAL_TEXT, toolCalls: 5 });
    expect(outcome.messages.find((message) => message.toolCallId === 'call-charge')?.content).toBe(
      '"charge A-1 done"',
    );
    expect(lines().filter((line) => line.startsWith('charge '))).toHaveLength(1);
    // Decided once: a decision after the turn went on is refused.
    const late = await runWorker('turn-worker.ts', ['decide-late', setup()]);
    expect(late.reports[0]).toMatchObject({
      approval: { state: 'done' },
      round1: {
        state: 'decided',
        round: 1,
        decisions: { 'call-charge': { approve: true, by: 'alice' } },
      },
      late: { error: { name: 'ApprovalError', code: 'APPROVAL_REFUSED', reason: 'not-pending' } },
    });
  }, 120_000);

  it('refuses the call when nobody decides before the wait ends, and a decision after it', async () => {
    const { setup, lines } = testSetup('expire', {
      version: 'expire-test',
      approvals: ['charge'],
      turns: { approvalWaitMs: 500 },
    });
    const run = await runWorker('turn-worker.ts', ['expire', setup()]);
    expect(run.code, run.stderr).toBe(0);
    const [ended, refused] = run.reports as { outcome?: unknown; approval?: unknown; late?: unknown }[];
    expect(ended?.outcome).toMatchObject({ type: 'completed', toolCalls: 5 });
    const { messages } = (ended?.outcome ?? { messages: [] }) as {
      messages: { toolCallId?: string; content: string }[];
    };
    expect(messages.find((message) => message.toolCallId === 'call-charge')?.content).toContain(
      'approval window closed',
    );
    expect(ended?.approval).toEqual({ state: 'done' });
    expect(refused?.late).toMatchObject({ error: { name: 'ApprovalError', reason: 'not-pending' } });
    expect(lines().filter((line) => line.startsWith('charge '))).toHaveLength(0);
  }, 60_000);
});
