export { argumentScenarios } from './argument-scenarios.js';
export {
  batchWriteScenarios,
  LONG_BATCH_ITEMS,
  LONG_BATCH_MAX_ROUND_TRIPS,
} from './batch-write-scenarios.js';
export { boundedScenarios, OVER_LIMIT_INVITES, uselessToolsScenario } from './bounded-scenarios.js';
export { type AgentDecision, type AgentModelOptions, createAgentModel } from './create-agent-model.js';
export { cycleScenarios, oscillationScenario } from './cycle-scenarios.js';
export { formatScenarioSummary, NARROW_WIDTH } from './format-scenario-summary.js';
export { formatScenarioTable, SCENARIO_TABLE_HEADER } from './format-scenario-table.js';
export { formatWideScenarioTable, WIDE_SCENARIO_TABLE_HEADER } from './format-wide-scenario-table.js';
export { GUARD_CLASS_NAMES, GUARD_CLASSES, type GuardClass, guardClassFamily } from './guard-class.js';
export { LOOP_STOP_SLACK, scenarioProblems, stopDeadline, wastedRounds } from './judge-scenario-run.js';
export type {
  LoopScenario,
  ScenarioExpectation,
  ScenarioKind,
  ScenarioOptions,
  ScenarioRun,
  ScenarioSet,
  ScenarioSetup,
  ScenarioSpec,
  V3ScenarioSpec,
} from './loop-scenario.js';
export { loopScenarios, scenarioNamed, scenariosOf } from './loop-scenarios.js';
export { loopScenariosReport, type ScenarioReportForm } from './loop-scenarios-report.js';
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
export { type ScenarioTableJson, scenarioTableJson } from './scenario-table-json.js';
export {
  asExpected,
  type ClassCount,
  guardClassCounts,
  type PolicyTotals,
  scenarioTotals,
  type Tally,
} from './scenario-totals.js';
export { SEARCH_REWORDINGS, searchScenarios } from './search-scenarios.js';
export { sessionScenarios } from './session-scenarios.js';
export { v3AckScenarios } from './v3-ack-scenarios.js';
export { SHIPMENT_MAX_ROUND_TRIPS, SHIPMENT_PAGES, v3CeilingScenarios } from './v3-ceiling-scenarios.js';
export { v3ClientIdScenarios } from './v3-client-id-scenarios.js';
export { v3DenialScenarios } from './v3-denial-scenarios.js';
export { v3EntityScenarios } from './v3-entity-scenarios.js';
export { v3FlipFlopScenarios } from './v3-flip-flop-scenarios.js';
export { v3NoOpWriteScenarios } from './v3-no-op-write-scenarios.js';
export { v3PerRequestScenarios } from './v3-per-request-scenarios.js';
export { v3ShellScenarios } from './v3-shell-scenarios.js';
export { v3SpellingScenarios } from './v3-spelling-scenarios.js';
export { v3TokenScenarios } from './v3-token-scenarios.js';
export { v3VolatileScenarios } from './v3-volatile-scenarios.js';
export { TWELVE_STEP_PLAN, twelveStepTaskScenario, workflowScenarios } from './workflow-scenarios.js';
