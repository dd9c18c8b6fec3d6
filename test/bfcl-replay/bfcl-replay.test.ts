import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_FALSE_STOPS } from './__fixtures__/known-false-stops.js';
import { createBfclToolbox } from './create-bfcl-toolbox.js';
import { formatReplayReport, modeName } from './format-replay-report.js';
import { readMultiTurnTasks } from './read-multi-turn-tasks.js';
import { isCovered, REPLAY_MODES, replayBfclTask, type TaskReplay } from './replay-bfcl-task.js';

/**
 * Issue 24, evidence: real legitimate call sequences through the default guard. BFCL's multi-turn
 * ground truth (../shared/corpus/bfcl, BFCL_v4_multi_turn_base.json and its possible answers) gives, per
 * task and turn, the calls a correct agent makes; each is replayed through `runToolLoop` against
 * TypeScript versions of BFCL's classes (__fixtures__/, checked against the Python classes' own answers
 * in bfcl-classes.test.ts), and no replay may stop. `node --import tsx test/bfcl-replay/main.ts` prints
 * the report.
 */
const corpus = readMultiTurnTasks(fileURLToPath(new URL('../../../shared/corpus/bfcl/', import.meta.url)));
const tasks = corpus.tasks.filter(isCovered);
const toolbox = createBfclToolbox(corpus);

describe('BFCL multi-turn ground truth replayed through the default guard', () => {
  it('covers every task the file system takes part in: 50 of 200, 159 turns, 276 calls', () => {
    expect(corpus.tasks).toHaveLength(200);
    expect(tasks).toHaveLength(50);
    expect(tasks.every((task) => task.involvedClasses.includes('GorillaFileSystem'))).toBe(true);
    expect(corpus.tasks.filter((task) => task.involvedClasses.includes('GorillaFileSystem'))).toEqual(tasks);
    expect(tasks.reduce((sum, task) => sum + task.groundTruth.length, 0)).toBe(159);
    expect(tasks.reduce((sum, task) => sum + task.groundTruth.flat().length, 0)).toBe(276);
  });

  describe.each(REPLAY_MODES.map((mode) => [modeName(mode), mode] as const))('%s', (name, mode) => {
    let replays: TaskReplay[] = [];
    let report = '';
    beforeAll(async () => {
      replays = [];
      for (const task of tasks) replays.push(await replayBfclTask(task, toolbox, mode));
      report = formatReplayReport(mode, replays);
    });

    it('replays every ground-truth call as BFCL runs it: none refused, none answering with an error', () => {
      expect(replays).toHaveLength(50);
      expect(
        replays.flatMap((replay) => replay.problems.map((problem) => `${replay.id}: ${problem}`)),
      ).toEqual([]);
      const rounds = replays.reduce((sum, replay) => sum + replay.rounds, 0);
      expect(rounds, report).toBe(mode.batching === 'sequential' ? 276 : 159);
    });

    it('stops no task: every turn of every task completes (KNOWN_FALSE_STOPS aside)', () => {
      const stopped = replays
        .filter((replay) => replay.stop !== undefined)
        .map((replay) => `${replay.id} ${name}`);
      const unexpected = stopped.filter((key) => !KNOWN_FALSE_STOPS.has(key));
      expect(unexpected, report).toEqual([]);
    });

    it('still stops every replay KNOWN_FALSE_STOPS lists for this mode (empty the list as the guard is fixed)', () => {
      const listed = [...KNOWN_FALSE_STOPS].filter((key) => key.endsWith(` ${name}`));
      const stopped = new Set(
        replays.filter((replay) => replay.stop !== undefined).map((replay) => `${replay.id} ${name}`),
      );
      expect(
        listed.filter((key) => !stopped.has(key)),
        report,
      ).toEqual([]);
    });

    it('warns on none either: a warning puts a loop note before the model on legitimate work', () => {
      expect(
        replays.flatMap((replay) => replay.warnings.map((warning) => `${replay.id} turn ${warning.turn}`)),
        report,
      ).toEqual([]);
    });
  });

  it('lists known false stops by task id and a mode of the replay', () => {
    const names = new Set(REPLAY_MODES.map(modeName));
    const ids = new Set(tasks.map((task) => task.id));
    for (const key of KNOWN_FALSE_STOPS) {
      const [id = '', mode = ''] = key.split(' ');
      expect(ids.has(id) && names.has(mode), key).toBe(true);
    }
  });

  it('sees a stop when there is one: the same ls, four times in a turn of a real task, is stopped', async () => {
    const [task] = tasks;
    if (task === undefined) throw new Error('no task');
    const looping = {
      ...task,
      questions: ['What is in the document folder? Look again, and again.'],
      groundTruth: [["cd(folder='document')", 'ls()', 'ls()', 'ls()', 'ls()']],
    };
    for (const effects of ['declared', 'undeclared'] as const) {
      const replay = await replayBfclTask(looping, toolbox, { batching: 'sequential', effects });
      expect(replay.stop?.reason, effects).toBe('LOOP_DETECTED');
      expect(replay.stop?.detector, effects).toBe('exact-repeat');
      expect(replay.stop?.notRun, effects).toEqual(['ls()']);
    }
  });
});
