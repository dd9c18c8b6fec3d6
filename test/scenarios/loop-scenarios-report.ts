import { formatScenarioTable } from './format-scenario-table.js';
import { runLoopScenarios } from './run-loop-scenarios.js';

/**
 * For `npm run scenarios`: the table, and whether every guarded run ended as its scenario states and
 * every history, under every policy, is well-formed.
 */
export async function loopScenariosReport(): Promise<{ table: string; allCorrect: boolean }> {
  const rows = await runLoopScenarios();
  const allCorrect = rows.every(
    (row) => row.guarded.problems.length === 0 && row.stepCaps.every((run) => run.wellFormed),
  );
  return { table: formatScenarioTable(rows), allCorrect };
}
