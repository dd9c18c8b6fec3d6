import { formatScenarioTable } from './format-scenario-table.js';
import { formatWideScenarioTable } from './format-wide-scenario-table.js';
import type { LoopScenario } from './loop-scenario.js';
import { loopScenarios } from './loop-scenarios.js';
import { runLoopScenarios } from './run-loop-scenarios.js';
import { scenarioTableJson } from './scenario-table-json.js';

/** The forms `npm run scenarios` prints: the 120-column table, the wide table, JSON. */
export type ScenarioReportForm = 'narrow' | 'wide' | 'json';

/**
 * For `npm run scenarios`: the report in one form, and whether every guarded run ended as its scenario
 * states and every history, under every policy, is well-formed.
 */
export async function loopScenariosReport(
  form: ScenarioReportForm = 'narrow',
  scenarios: readonly LoopScenario[] = loopScenarios,
): Promise<{ text: string; allCorrect: boolean }> {
  const rows = await runLoopScenarios(scenarios);
  const allCorrect = rows.every(
    (row) => row.guarded.problems.length === 0 && row.stepCaps.every((run) => run.wellFormed),
  );
  return { text: formatReport(form, rows), allCorrect };
}

function formatReport(form: ScenarioReportForm, rows: Awaited<ReturnType<typeof runLoopScenarios>>): string {
  switch (form) {
    case 'narrow':
      return formatScenarioTable(rows);
    case 'wide':
      return formatWideScenarioTable(rows);
    case 'json':
      return JSON.stringify(scenarioTableJson(rows), null, 2);
    default: {
      const unknown: never = form;
      throw new Error(`unknown report form ${String(unknown)}`);
    }
  }
}
