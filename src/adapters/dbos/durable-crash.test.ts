import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FINAL_TEXT, ROUNDS, STEPS } from './__fixtures__/five-call-turn.js';
import { runWorker, testDatabase } from './__fixtures__/run-worker.js';

const db = testDatabase();
const folder = mkdtempSync(join(tmpdir(), 'tw-dbos-crash-'));
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await db.drop();
});

/** Every step boundary of the five-call turn: after a step's checkpoint, and after its work but before it. */
const POINTS = STEPS.flatMap((_, k) => [`after-${k}`, `before-${k}`]);

describe('a durable turn of five calls, its process killed at every step boundary', () => {
  it('runs each write once, each read at most twice, and ends as an uninterrupted turn does', async (context) => {
    const effects = join(folder, 'effects.log');
    const setup = JSON.stringify({ url: db.url, schema: db.schema, effects, version: 'crash-test' });
    // One process runs a turn per point and one without a crash, and dies once every turn stopped at its point.
    const start = await runWorker('crash-worker.ts', ['start', setup, JSON.stringify(POINTS)]);
    expect(start.code, start.stderr).toBe(1);
    const control = start.reports.find((line) => line.session === 's-control')?.outcome;
    expect(control).toMatchObject({ type: 'completed', text: FINAL_TEXT, toolCalls: 5 });
    // The next process recovers them all on launch.
    const recover = await runWorker('crash-worker.ts', ['recover', setup, JSON.stringify(POINTS)]);
    expect(recover.code, recover.stderr).toBe(0);

    const lines = readFileSync(effects, 'utf8').trim().split('\n');
    const ran = (what: string, session: string) =>
      lines.filter((line) => line.startsWith(`${what} ${session} `)).length;
    const pids = new Set(lines.map((line) => line.split(' ')[2]));
    expect(pids.size, 'two processes did the work').toBe(2);
    for (const point of POINTS) {
      const session = `s-${point}`;
      const found = recover.reports.find((line) => line.session === session);
      expect(found, session).toBeDefined();
      const { outcome, steps } = found as { outcome: typeof control; steps: string[] };
      const k = Number(point.split('-')[1]);
      // A step whose work was done but not checkpointed runs again: a read twice, a write from its record.
      const again = point.startsWith('before-') ? STEPS[k] : undefined;
      // The guard's memory saved but not checkpointed: saved again, its compare-and-set refused once, so a
      // second save follows.
      expect(steps, session).toEqual(again === 'store:set' ? [...STEPS, 'store:set'] : STEPS);
      for (const { name, write } of ROUNDS.flat()) {
        expect(ran(name, session), `${session}: ${name}`).toBe(!write && again === `tool:${name}` ? 2 : 1);
      }
      for (let round = 0; round <= ROUNDS.length; round++) {
        expect(ran(`model-${round}`, session), `${session}: model ${round}`).toBeLessThanOrEqual(2);
      }
      expect(outcome, session).toMatchObject({ type: 'completed', text: FINAL_TEXT, toolCalls: 5 });
      const answers = (outcome as { messages: { role: string; toolCallId?: string; content: string }[] })
        .messages;
      const expected = (control as { messages: { role: string; toolCallId?: string; content: string }[] })
        .messages;
      // One answer per call, in the uninterrupted turn's order, saying what it said (a write answered
      // from its record says so first); the user's message (the session's name) aside.
      expect(answers.map((m) => [m.role, m.toolCallId])).toEqual(expected.map((m) => [m.role, m.toolCallId]));
      answers.slice(1).forEach((message, i) => {
        const said = expected[i + 1]?.content ?? '?';
        expect(
          message.content === said || message.content.endsWith(` ${said}`),
          `${session}: ${message.content}`,
        ).toBe(true);
      });
    }
    context.annotate(`${POINTS.length} crash points, ${lines.length} effects`);
  }, 180_000);
});
