import { fileURLToPath } from 'node:url';
import { createBfclToolbox } from './create-bfcl-toolbox.js';
import { formatReplayReport } from './format-replay-report.js';
import { readMultiTurnTasks } from './read-multi-turn-tasks.js';
import { isCovered, REPLAY_MODES, replayBfclTask, type TaskReplay } from './replay-bfcl-task.js';

// `node --import tsx test/bfcl-replay/main.ts`: the BFCL replay's report, every mode (bfcl-replay.test.ts
// asserts the same runs).
const corpus = readMultiTurnTasks(fileURLToPath(new URL('../../../shared/corpus/bfcl/', import.meta.url)));
const toolbox = createBfclToolbox(corpus);

async function main(): Promise<void> {
  const tasks = corpus.tasks.filter(isCovered);
  process.stdout.write(`BFCL multi_turn_base: ${tasks.length} of ${corpus.tasks.length} tasks covered\n`);
  for (const mode of REPLAY_MODES) {
    const replays: TaskReplay[] = [];
    for (const task of tasks) replays.push(await replayBfclTask(task, toolbox, mode));
    process.stdout.write(`${formatReplayReport(mode, replays)}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bfcl-replay: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
