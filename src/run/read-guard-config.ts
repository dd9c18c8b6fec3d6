import { DEFAULT_GUARD_WINDOW_ROUNDS } from '../core/defaults.js';
import type { ConfigReader } from '../options/config-reader.js';
import { type LoopHints, loopHintsProblem } from '../tools/loop-hints.js';
import { type GuardOptions, type ResolvedGuard, resolveGuard } from './stop-conditions.js';

/** The guard's thresholds, with the rules `loopGuard()` applies to them (`resolveGuard` fills the defaults). */
const THRESHOLDS: Readonly<Record<string, { min: number; max?: number }>> = {
  repeatLimit: { min: 2 },
  sameResultLimit: { min: 2 },
  maxCyclePeriod: { min: 0 },
  noProgressRounds: { min: 2, max: DEFAULT_GUARD_WINDOW_ROUNDS },
  transientRepeatLimit: { min: 0 },
};

/**
 * A config file's `loopGuard` (the MCP proxy's, the gateway's): `false`, or the thresholds, `nudge` and
 * `hints` of `loopGuard()`, each checked with its JSON path; undefined gives the defaults.
 */
export function readGuardConfig(value: unknown, reader: ConfigReader, path: string): ResolvedGuard | false {
  if (value === false) return false;
  if (value === undefined) return resolveGuard({});
  const guard = reader.object(value, path, [...Object.keys(THRESHOLDS), 'nudge', 'hints']);
  if (guard === undefined) return resolveGuard({});
  const options: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(THRESHOLDS)) {
    if (guard[key] !== undefined) options[key] = reader.number(guard[key], `${path}.${key}`, rule);
  }
  if (guard.nudge !== undefined) options.nudge = reader.boolean(guard.nudge, `${path}.nudge`);
  if (guard.hints !== undefined) {
    options.hints = reader.map(guard.hints, `${path}.hints`, (entry, at): LoopHints | undefined => {
      const problem = loopHintsProblem(entry);
      if (problem === undefined) return entry as LoopHints;
      reader.problem(at, problem);
      return undefined;
    });
  }
  // Every value is checked (or undefined, its default then): `resolveGuard` cannot throw here.
  return resolveGuard(options as GuardOptions);
}
