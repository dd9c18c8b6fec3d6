import { existsSync, readFileSync } from 'node:fs';

/** One task of `BFCL_v4_multi_turn_base.json` with its ground truth. */
export interface MultiTurnTask {
  readonly id: string;
  /** The user's message of each turn (a turn's messages joined, should there be several). */
  readonly questions: readonly string[];
  /** Each class's starting state, by class name. */
  readonly initialConfig: Readonly<Record<string, unknown>>;
  /** The classes whose functions the task offers (BFCL loads the docs of these). */
  readonly involvedClasses: readonly string[];
  /** Per turn, the calls a correct agent makes, as Python call strings, in order. */
  readonly groundTruth: readonly (readonly string[])[];
}

/** The multi-turn base category: its tasks and the func docs of its classes, by file name. */
export interface MultiTurnCorpus {
  readonly tasks: readonly MultiTurnTask[];
  readonly funcDocs: (file: string) => readonly Readonly<Record<string, unknown>>[];
}

/** Reads the multi-turn base tasks from the BFCL corpus folder (`../shared/corpus/bfcl/`). */
export function readMultiTurnTasks(directory: string): MultiTurnCorpus {
  const data = `${directory}BFCL_v4_multi_turn_base.json`;
  if (!existsSync(data)) {
    throw new Error(
      `The BFCL corpus is missing: expected ${data} (../shared/corpus/bfcl next to the repository; see its README.md).`,
    );
  }
  const answers = new Map(
    readJsonLines<{ id: string; ground_truth: string[][] }>(
      `${directory}possible_answer/BFCL_v4_multi_turn_base.json`,
    ).map((row) => [row.id, row.ground_truth]),
  );
  const tasks = readJsonLines<{
    id: string;
    question: { role: string; content: string }[][];
    initial_config: Record<string, unknown>;
    involved_classes: string[];
  }>(data).map((entry): MultiTurnTask => {
    const groundTruth = answers.get(entry.id);
    if (groundTruth === undefined) throw new Error(`no ground truth for ${entry.id}`);
    if (groundTruth.length !== entry.question.length)
      throw new Error(`${entry.id}: ${entry.question.length} turns, ${groundTruth.length} answered`);
    return {
      id: entry.id,
      questions: entry.question.map((turn) => turn.map((message) => message.content).join('\n')),
      initialConfig: entry.initial_config,
      involvedClasses: entry.involved_classes,
      groundTruth,
    };
  });
  const docs = new Map<string, Readonly<Record<string, unknown>>[]>();
  return {
    tasks,
    funcDocs: (file) => {
      let functions = docs.get(file);
      if (functions === undefined) {
        functions = readJsonLines(`${directory}multi_turn_func_doc/${file}`);
        docs.set(file, functions);
      }
      return functions;
    },
  };
}

/** JSON Lines, as every BFCL file is (most without a trailing newline). */
function readJsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
