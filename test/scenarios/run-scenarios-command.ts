import type { CommandIo } from '../../src/cli/command-io.js';
import { renderReportText } from '../../src/report/render-report-text.js';
import { loopScenariosReport } from './loop-scenarios-report.js';
import { runReportDemo } from './report/run-report-demo.js';

/** How to call `npm run scenarios`. */
export const SCENARIOS_USAGE = `Usage: npm run scenarios [-- --report [folder]]

  (no argument)       run the loop scenarios under the guard and under step caps 10/20/25, as a table;
                      exits 1 unless every scenario ends as it states
  --report [folder]   run the loop scenarios with the JSONL audit log on, print its report, and write the
                      log, the HTML page and the JSON to the folder (a new temp folder by default)
`;

/**
 * `npm run scenarios`, the loop scenario suite as a developer command run from the repository (the suite is
 * a test fixture, not shipped in the package): returns the exit code (0 ok, 1 failed, 2 usage error).
 */
export async function runScenariosCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const [flag, folder, ...extra] = args;
  if (flag === undefined) {
    const report = await loopScenariosReport();
    await io.stdout(`${report.table}\n`);
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
  await io.stderr(
    `scenarios: unknown argument: ${flag === '--report' ? extra[0] : flag}\n\n${SCENARIOS_USAGE}`,
  );
  return 2;
}
