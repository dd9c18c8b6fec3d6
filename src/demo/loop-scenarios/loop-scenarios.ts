import { contractMismatchScenario } from './contract-mismatch-scenario.js';
import type { LoopScenario } from './loop-scenario.js';
import { noToolScenario } from './no-tool-scenario.js';
import { oscillationScenario } from './oscillation-scenario.js';
import { pollingScenario } from './polling-scenario.js';
import { transientFailureScenario } from './transient-failure-scenario.js';
import { truncatedSearchScenario } from './truncated-search-scenario.js';
import { twelveStepTaskScenario } from './twelve-step-task-scenario.js';
import { uselessToolsScenario } from './useless-tools-scenario.js';

/** The scenario suite of issue 3, in its order. */
export const loopScenarios: readonly LoopScenario[] = Object.freeze([
  contractMismatchScenario,
  truncatedSearchScenario,
  oscillationScenario,
  transientFailureScenario,
  twelveStepTaskScenario,
  pollingScenario,
  noToolScenario,
  uselessToolsScenario,
]);
