import { argumentScenarios } from './argument-scenarios.js';
import { batchWriteScenarios } from './batch-write-scenarios.js';
import { boundedScenarios } from './bounded-scenarios.js';
import { cycleScenarios } from './cycle-scenarios.js';
import type { LoopScenario, ScenarioSpec } from './loop-scenario.js';
import { paginationScenarios } from './pagination-scenarios.js';
import { parallelScenarios } from './parallel-scenarios.js';
import { pollingScenarios } from './polling-scenarios.js';
import { readAfterWriteScenarios } from './read-after-write-scenarios.js';
import { repeatScenarios } from './repeat-scenarios.js';
import { retryScenarios } from './retry-scenarios.js';
import { scanningScenarios } from './scanning-scenarios.js';
import { searchScenarios } from './search-scenarios.js';
import { sessionScenarios } from './session-scenarios.js';
import { workflowScenarios } from './workflow-scenarios.js';

/** Every family, in the suite's order (the seed's contract-mismatch loop first). */
const FAMILIES: readonly (readonly ScenarioSpec[])[] = [
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

/** The scenario suite, numbered in order. */
export const loopScenarios: readonly LoopScenario[] = Object.freeze(
  FAMILIES.flat().map((spec, index) => Object.freeze({ id: index + 1, ...spec })),
);

/** The scenario of the suite with this name (throws for a name the suite does not have). */
export function scenarioNamed(name: string): LoopScenario {
  const scenario = loopScenarios.find((candidate) => candidate.name === name);
  if (scenario === undefined) throw new Error(`no loop scenario is named ${JSON.stringify(name)}`);
  return scenario;
}
