import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { driveRun } from './drive-run.js';
import type { ResumeLoopOptions } from './loop-options.js';
import type { LoopOutcome } from './loop-outcome.js';
import { restoreRunState } from './restore-run-state.js';
import { createRunContext } from './run-context.js';
import type { RunState } from './run-state.js';
import { throwOnStop } from './run-tool-loop.js';

/**
 * Continues a saved run (its `RunState`, or the JSON text of one) in this process or any other. A paused
 * run first settles its waiting round: each call decided `run` runs without asking `beforeToolCall` again,
 * each decided `deny` is refused (the model is told it is not permitted), and undecided calls are asked
 * again. A state that is malformed, of another version or tampered with is refused with `RunStateError`
 * before anything runs; nothing of it is applied.
 */
export async function resumeToolLoop(
  saved: RunState | string,
  options: ResumeLoopOptions,
): Promise<LoopOutcome> {
  const state = restoreRunState(saved);
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({ option: 'options', message: 'resumeToolLoop expects an options object' });
  }
  if (options.sessionId !== undefined && options.sessionId !== state.sessionId) {
    throw new InvalidOptionsError({
      option: 'sessionId',
      message: 'differs from the saved run state; leave it out',
    });
  }
  const decisions = readDecisions(options.decisions, state);
  const run = createRunContext(
    { ...options, ...(state.sessionId === undefined ? {} : { sessionId: state.sessionId }) },
    state,
    { listener: options.onEvent, decisions },
  );
  return throwOnStop(options, await driveRun(state, run, true));
}

function readDecisions(
  decisions: ResumeLoopOptions['decisions'],
  state: RunState,
): ReadonlyMap<string, 'run' | 'deny'> | undefined {
  if (decisions === undefined) return undefined;
  if (typeof decisions !== 'object' || decisions === null || Array.isArray(decisions)) {
    throw new InvalidOptionsError({
      option: 'decisions',
      message: 'must be an object of call id to "run" or "deny"',
    });
  }
  const waiting = new Set((state.pending ?? []).map((call) => call.toolCallId));
  const map = new Map<string, 'run' | 'deny'>();
  for (const [id, decision] of Object.entries(decisions)) {
    if (!waiting.has(id)) {
      throw new InvalidOptionsError({
        option: `decisions.${id.slice(0, 100)}`,
        message: 'names no call the saved run waits for',
      });
    }
    if (decision !== 'run' && decision !== 'deny') {
      throw new InvalidOptionsError({
        option: `decisions.${id.slice(0, 100)}`,
        message: `must be "run" or "deny", got ${String(decision).slice(0, 100)}`,
      });
    }
    map.set(id, decision);
  }
  return map;
}
