import type { CommandIo } from '../../src/cli/command-io.js';
import { renderReportText } from '../../src/report/render-report-text.js';
import type { LoopScenario } from './loop-scenario.js';
import { loopScenarios } from './loop-scenarios.js';
import { loopScenariosReport, type ScenarioReportForm } from './loop-scenarios-report.js';
import { runReportDemo } from './report/run-report-demo.js';

/** How to call `npm run scenarios`. */
export const SCENARIOS_USAGE = `Usage: npm run scenarios [-- --wide | --json | --report [folder]]

  (no argument)       run the loop scenarios (the v2 corpus and the v3 evidence) under the guard and under
                      step caps 10/20/25: a table at most 120 columns wide, per set and class, then totals;
                      exits 1 unless every scenario ends as it states
  --wide              the same with every column: family, outcome, reason, each step cap per scenario
  --json              the same as JSON: every scenario, run, total and class (exit code as above)
  --report [folder]   run the v2 loop scenarios with the JSONL audit log on, print its report, and write the
                      log, the HTML page and the JSON to the folder (a new temp folder by default)
`;

const FORMS: Readonly<Record<string, ScenarioReportForm>> = { '--wide': 'wide', '--json': 'json' };

/**
 * `npm run scenarios`, the loop scenario suite as a developer command run from the repository (the suite is
 * a test fixture, not shipped in the package): returns the exit code (0 ok, 1 failed, 2 usage error). The
 * table forms run `scenarios` (the whole suite by default).
 */
export async function runScenariosCommand(
  args: readonly string[],
  io: CommandIo,
  scenarios: readonly LoopScenario[] = loopScenarios,
): Promise<number> {
  const [flag, folder, ...extra] = args;
  const form = flag === undefined ? 'narrow' : FORMS[flag];
  if (form !== undefined && args.length <= 1) {
    const report = await loopScenariosReport(form, scenarios);
    await io.stdout(`${report.text}\n`);
    return report.allCorrect ? 0 : 1;
  }
  if (flag === '--report' && extra.length === 0) {
    const demo = await runReportDemo(folder);
    await io.stdout(renderReportText(demo.report));
    await io.stdout(`\naudit log: ${demo.auditLog}\npage: ${demo.html}\njson: ${demo.json}\n`);
    return 0;
  }
  if (flag === '--help' || flag === '-h') {
    await io.stdout(SCENARIOS_USAGE);
    return 0;
  }
  // The first argument not understood: one after a form flag, a second after --report's folder, or the flag.
  const unknown = form !== undefined ? folder : flag === '--report' ? extra[0] : flag;
  await io.stderr(`scenarios: unknown argument: ${unknown}\n\n${SCENARIOS_USAGE}`);
  return 2;
}
