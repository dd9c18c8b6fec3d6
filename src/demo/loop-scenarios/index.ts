export { contractMismatchScenario } from './contract-mismatch-scenario.js';
export { type AgentDecision, type AgentModelOptions, createAgentModel } from './create-agent-model.js';
export { formatScenarioTable } from './format-scenario-table.js';
export type { LoopScenario, ScenarioExpectation, ScenarioSetup } from './loop-scenario.js';
export { loopScenarios } from './loop-scenarios.js';
export { loopScenariosReport } from './loop-scenarios-report.js';
export { noToolScenario } from './no-tool-scenario.js';
export { oscillationScenario } from './oscillation-scenario.js';
export { POLLS_UNTIL_DONE, pollingScenario } from './polling-scenario.js';
export { type ConversationView, readConversation } from './read-conversation.js';
export { roundsAfterFirstRepeat } from './rounds-after-first-repeat.js';
export {
  GUARDED_POLICY,
  type PolicyRun,
  runLoopScenarios,
  runScenario,
  type ScenarioPolicy,
  type ScenarioRow,
  STEP_CAP_POLICIES,
} from './run-loop-scenarios.js';
export { TRANSIENT_FAILURES, transientFailureScenario } from './transient-failure-scenario.js';
export { SEARCH_REWORDINGS, truncatedSearchScenario } from './truncated-search-scenario.js';
export { TWELVE_STEP_PLAN, twelveStepTaskScenario } from './twelve-step-task-scenario.js';
export { uselessToolsScenario } from './useless-tools-scenario.js';
