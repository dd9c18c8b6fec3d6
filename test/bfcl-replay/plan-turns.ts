import type { Args } from './__fixtures__/bfcl-api.js';
import { parsePythonCall } from './parse-python-call.js';
import type { MultiTurnTask } from './read-multi-turn-tasks.js';

/** One ground-truth call, read and named. */
export interface PlannedCall {
  /** `t<turn>c<call>`, from 1: the tool call id the scripted model gives it. */
  readonly id: string;
  readonly name: string;
  /** Every argument by name, positional ones named by the function doc's order. */
  readonly args: Args;
  /** The call as the ground truth writes it. */
  readonly text: string;
}

/**
 * Every turn's ground-truth calls, read. A positional argument (`sort('final_report.pdf')`) takes the
 * name of the doc's parameter at its position: the docs list them in the Python signature's order.
 */
export function planTurns(
  task: MultiTurnTask,
  parameterNames: (name: string) => readonly string[] | undefined,
): PlannedCall[][] {
  return task.groundTruth.map((turn, t) =>
    turn.map((text, c) => {
      const call = parsePythonCall(text);
      const names = parameterNames(call.name);
      if (names === undefined) throw new Error(`${task.id}: ${text} calls a function no class offers`);
      const args: Record<string, unknown> = {};
      call.positional.forEach((value, index) => {
        const name = names[index];
        if (name === undefined) throw new Error(`${task.id}: ${text} has too many positional arguments`);
        args[name] = value;
      });
      Object.assign(args, call.keywords);
      return { id: `t${t + 1}c${c + 1}`, name: call.name, args, text };
    }),
  );
}
