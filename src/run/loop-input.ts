import { POLICY_OPTIONS } from '../chain/policy.js';
import {
  createToolRuntime,
  type ResolvedRuntime,
  resolvedRuntime,
  type ToolRuntime,
} from '../chain/runtime.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { checkOptionNames, type OptionNames, optionNameSet } from '../options/check-option-names.js';
import type { LoopSettings, LoopStart, LoopTools } from './loop-options.js';

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

const TOOLS: OptionNames<LoopTools> = { runtime: true, tools: true };
const START: OptionNames<LoopStart> = { messages: true, from: true, decisions: true };

/** The options `runToolLoop` and `streamToolLoop` know. */
const KNOWN = optionNameSet(SETTINGS, TOOLS, START);

/**
 * Options a caller may bring that the loop does not take, and what it has instead: other libraries' habits,
 * and every policy option (the policy lives on the runtime).
 */
const HABITS: Readonly<Record<string, string>> = {
  maxSteps: 'the loop counts model calls: use stopWhen: [maxRoundTrips(n)] (or maxRoundTrips: n)',
  abortSignal: 'the loop takes signal',
  ...Object.fromEntries(
    Object.keys(POLICY_OPTIONS).map((option) => [
      option,
      `the policy lives on the runtime: build it with createToolRuntime({ tools, ${option}, ... }) and pass runtime`,
    ]),
  ),
};

/** The ids that name state kept across runs: a session's, a turn's. */
export interface StateIds {
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
}

/**
 * Refuses an option the loop does not know (`InvalidOptionsError`): a typo, another library's habit
 * (`maxSteps`), or a policy option, which belongs in `createToolRuntime`.
 */
export function checkLoopOptionNames(options: unknown, form: 'runToolLoop' | 'streamToolLoop'): void {
  checkOptionNames(options, KNOWN, { of: form, habits: HABITS });
}

/**
 * The runtime a run calls tools with: the one given, or `createToolRuntime({ tools })` for `tools` alone.
 * Refused with `InvalidOptionsError`: both or neither; and `tools` alone with a session or a turn (`ids`:
 * the options', or a resumed state's), whose state (write records, call counts, the guard's memory) would
 * live in a memory store that lasts one run.
 */
export function loopRuntime(options: LoopTools, form: string, ids: StateIds): ResolvedRuntime {
  const { runtime, tools } = options;
  if (runtime !== undefined) {
    if (tools !== undefined) {
      throw new InvalidOptionsError({
        option: 'tools',
        message: `belongs in createToolRuntime({ tools, ... }), not next to a runtime: the runtime has its tools already, and ${form} would not change them`,
      });
    }
    if (!isRuntime(runtime)) {
      throw new InvalidOptionsError({
        option: 'runtime',
        message: 'must be a runtime made by createToolRuntime',
      });
    }
    return resolvedRuntime(runtime);
  }
  if (tools === undefined) {
    throw new InvalidOptionsError({
      option: 'tools',
      message: 'is required (or a runtime made by createToolRuntime)',
    });
  }
  const kept = ids.sessionId !== undefined ? 'sessionId' : ids.turnId !== undefined ? 'turnId' : undefined;
  if (kept !== undefined) {
    throw new InvalidOptionsError({
      option: kept,
      message: `${form} with tools alone builds a runtime, and a memory store, for this run and keeps nothing between runs, so what the ${kept === 'sessionId' ? 'session' : 'turn'} keeps in the store (records of its writes, its call counts, the loop guard's memory) would be lost. Build the runtime once with createToolRuntime({ tools, store }) and pass runtime`,
    });
  }
  return resolvedRuntime(createToolRuntime({ tools }));
}

function isRuntime(value: unknown): value is ToolRuntime {
  if (typeof value !== 'object' || value === null) return false;
  const runtime = value as Partial<ToolRuntime>;
  return (
    typeof runtime.executeToolCalls === 'function' &&
    typeof runtime.tools === 'object' &&
    typeof runtime.policy === 'object'
  );
}
