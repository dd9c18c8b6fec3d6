import type { ToolRuntime } from '../chain/runtime.js';
import { RUNTIME_INPUT_OPTIONS, runtimeOf, type StateIds } from '../chain/runtime-input.js';
import { checkOptionNames, type OptionNames, optionNameSet } from '../options/check-option-names.js';
import type { LoopSettings, RunOptions } from './loop-options.js';

const SETTINGS: OptionNames<LoopSettings> = {
  model: true,
  stopWhen: true,
  maxRoundTrips: true,
  tokenBudget: true,
  timeBudgetMs: true,
  cost: true,
  costBudget: true,
  guard: true,
  finalAnswer: true,
  fallback: true,
  handoff: true,
  throwOnStop: true,
  signal: true,
  sessionId: true,
  approvalTtlMs: true,
  callbackTimeoutMs: true,
  data: true,
  turnId: true,
  now: true,
  onEvent: true,
  includeContent: true,
  streamDeltas: true,
  wrapModelCall: true,
  wrapRun: true,
  modelRetries: true,
  modelTimeoutMs: true,
  sleep: true,
};

/** Each entry point and the options it knows. */
const KNOWN = {
  runToolLoop: optionNameSet(SETTINGS, RUNTIME_INPUT_OPTIONS, { messages: true }),
  streamToolLoop: optionNameSet(SETTINGS, RUNTIME_INPUT_OPTIONS, { messages: true }),
  /** `resumeToolLoop(state, options)`. */
  resumeToolLoop: optionNameSet(SETTINGS, RUNTIME_INPUT_OPTIONS, { decisions: true }),
  /** `resumeToolLoop({ runId, ... })`. */
  resumeStored: optionNameSet(SETTINGS, RUNTIME_INPUT_OPTIONS, { decisions: true, runId: true }),
} as const;

/** Other libraries' options a caller may bring, and what the loop has instead. */
const HABITS: Readonly<Record<string, string>> = {
  maxSteps: 'the loop counts model calls: use stopWhen: [maxRoundTrips(n)] (or maxRoundTrips: n)',
  abortSignal: 'the loop takes signal',
};

/**
 * The runtime of a run, once its options are checked as a whole: an option the loop does not know is
 * refused (`maxSteps`, a typo), and so are a policy option next to a runtime and a one-off form given a
 * session or a turn (`ids`: the options', or a resumed state's) with no store (see `runtimeOf`).
 */
export function loopRuntime(options: RunOptions, form: keyof typeof KNOWN, ids: StateIds): ToolRuntime {
  const name = form === 'resumeStored' ? 'resumeToolLoop' : form;
  checkOptionNames(options, KNOWN[form], { of: name, habits: HABITS });
  return runtimeOf(options, name, ids);
}
