export { argumentScenarios } from './argument-scenarios.js';
export {
  batchWriteScenarios,
  LONG_BATCH_ITEMS,
  LONG_BATCH_MAX_ROUND_TRIPS,
} from './batch-write-scenarios.js';
export { boundedScenarios, OVER_LIMIT_INVITES, uselessToolsScenario } from './bounded-scenarios.js';
export { type AgentDecision, type AgentModelOptions, createAgentModel } from './create-agent-model.js';
export { cycleScenarios, oscillationScenario } from './cycle-scenarios.js';
export { formatScenarioTable, SCENARIO_TABLE_HEADER } from './format-scenario-table.js';
export { LOOP_STOP_SLACK, scenarioProblems, stopDeadline, wastedRounds } from './judge-scenario-run.js';
export type {
  LoopScenario,
  ScenarioExpectation,
  ScenarioKind,
  ScenarioOptions,
  ScenarioRun,
  ScenarioSetup,
  ScenarioSpec,
} from './loop-scenario.js';
export { loopScenarios, scenarioNamed } from './loop-scenarios.js';
export { loopScenariosReport } from './loop-scenarios-report.js';
export { INVOICE_PAGES, paginationScenarios } from './pagination-scenarios.js';
export { parallelScenarios } from './parallel-scenarios.js';
export {
  NEVER_DONE_MAX_UNCHANGED,
  POLLS_UNTIL_DONE,
  pollingScenarios,
  UNCHANGED_RUNNING_POLLS,
} from './polling-scenarios.js';
export { readAfterWriteScenarios } from './read-after-write-scenarios.js';
export { type ConversationView, readConversation } from './read-conversation.js';
export { contractMismatchScenario, repeatScenarios } from './repeat-scenarios.js';
export { retryScenarios, TRANSIENT_FAILURES } from './retry-scenarios.js';
export {
  GUARDED_POLICY,
  type PolicyRun,
  runLoopScenarios,
  runScenario,
  type ScenarioPolicy,
  type ScenarioRow,
  STEP_CAP_POLICIES,
} from './run-loop-scenarios.js';
export { SCAN_DATES, scanningScenarios } from './scanning-scenarios.js';
export { SEARCH_REWORDINGS, searchScenarios } from './search-scenarios.js';
export { sessionScenarios } from './session-scenarios.js';
export { TWELVE_STEP_PLAN, twelveStepTaskScenario, workflowScenarios } from './workflow-scenarios.js';
