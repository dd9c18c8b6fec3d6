import { argumentScenarios } from './argument-scenarios.js';
import { batchWriteScenarios } from './batch-write-scenarios.js';
import { boundedScenarios } from './bounded-scenarios.js';
import { cycleScenarios } from './cycle-scenarios.js';
import type { LoopScenario, ScenarioSet, ScenarioSpec } from './loop-scenario.js';
import { paginationScenarios } from './pagination-scenarios.js';
import { parallelScenarios } from './parallel-scenarios.js';
import { pollingScenarios } from './polling-scenarios.js';
import { readAfterWriteScenarios } from './read-after-write-scenarios.js';
import { repeatScenarios } from './repeat-scenarios.js';
import { retryScenarios } from './retry-scenarios.js';
import { scanningScenarios } from './scanning-scenarios.js';
import { searchScenarios } from './search-scenarios.js';
import { sessionScenarios } from './session-scenarios.js';
import { v3AckScenarios } from './v3-ack-scenarios.js';
import { v3CeilingScenarios } from './v3-ceiling-scenarios.js';
import { v3ClientIdScenarios } from './v3-client-id-scenarios.js';
import { v3DenialScenarios } from './v3-denial-scenarios.js';
import { v3EntityScenarios } from './v3-entity-scenarios.js';
import { v3FlipFlopScenarios } from './v3-flip-flop-scenarios.js';
import { v3NoOpWriteScenarios } from './v3-no-op-write-scenarios.js';
import { v3PerRequestScenarios } from './v3-per-request-scenarios.js';
import { v3ShellScenarios } from './v3-shell-scenarios.js';
import { v3SpellingScenarios } from './v3-spelling-scenarios.js';
import { v3TokenScenarios } from './v3-token-scenarios.js';
import { v3VolatileScenarios } from './v3-volatile-scenarios.js';
import { workflowScenarios } from './workflow-scenarios.js';

/** Every family of the v2 corpus, in the suite's order (the seed's contract-mismatch loop first). */
const V2_FAMILIES: readonly (readonly ScenarioSpec[])[] = [
  repeatScenarios,
  pollingScenarios,
  paginationScenarios,
  scanningScenarios,
  batchWriteScenarios,
  retryScenarios,
  workflowScenarios,
  cycleScenarios,
  readAfterWriteScenarios,
  searchScenarios,
  sessionScenarios,
  parallelScenarios,
  argumentScenarios,
  boundedScenarios,
];

/** The evidence of issue 24, one file per class, in the order. */
const V3_FAMILIES: readonly (readonly ScenarioSpec[])[] = [
  v3AckScenarios,
  v3EntityScenarios,
  v3ShellScenarios,
  v3CeilingScenarios,
  v3NoOpWriteScenarios,
  v3TokenScenarios,
  v3VolatileScenarios,
  v3ClientIdScenarios,
  v3FlipFlopScenarios,
  v3DenialScenarios,
  v3SpellingScenarios,
  v3PerRequestScenarios,
];

const inSet = (set: ScenarioSet, families: readonly (readonly ScenarioSpec[])[]) =>
  families.flat().map((spec) => ({ set, ...spec }));

/** The scenario suite, numbered in order: the v2 corpus, then the v3 evidence. */
export const loopScenarios: readonly LoopScenario[] = Object.freeze(
  [...inSet('v2', V2_FAMILIES), ...inSet('v3', V3_FAMILIES)].map((scenario, index) =>
    Object.freeze({ id: index + 1, ...scenario }),
  ),
);

/** The scenarios of one set, in the suite's order. */
export function scenariosOf(set: ScenarioSet): readonly LoopScenario[] {
  return loopScenarios.filter((scenario) => scenario.set === set);
}

/** The scenario of the suite with this name (throws for a name the suite does not have). */
export function scenarioNamed(name: string): LoopScenario {
  const scenario = loopScenarios.find((candidate) => candidate.name === name);
  if (scenario === undefined) throw new Error(`no loop scenario is named ${JSON.stringify(name)}`);
  return scenario;
}
