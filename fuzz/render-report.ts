import { ORACLES } from './oracle.js';
import type { CampaignReport } from './run-campaign.js';

/** Total findings of a set of campaigns (runs with a finding, summed over oracles). */
export function totalFailures(reports: readonly CampaignReport[]): number {
  return reports.reduce(
    (sum, report) => sum + ORACLES.reduce((s, oracle) => s + report.counts[oracle], 0),
    0,
  );
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** The counts table, the failure kinds, and a minimal repro of the first few kinds of each oracle. */
export function renderReport(reports: readonly CampaignReport[]): string {
  const lines: string[] = [];
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const header = ['oracle', ...reports.map((r) => `${r.target} (${r.runs} runs, ${seconds(r.runMs)})`)];
  const width = Math.max(...ORACLES.map((o) => o.length), 6) + 2;
  lines.push(header.map((cell, i) => pad(cell, i === 0 ? width : 28)).join(''));
  for (const oracle of ORACLES) {
    lines.push([pad(oracle, width), ...reports.map((r) => pad(String(r.counts[oracle]), 28))].join(''));
  }
  for (const report of reports) {
    if (report.kinds.length === 0) continue;
    lines.push('', `${report.target}: failure kinds (runs; first seen at path, seed ${report.seed})`);
    if (report.kinds.some((kind) => kind.repro !== undefined))
      lines.push(`  (shrinking took ${seconds(report.shrinkMs)})`);
    for (const kind of report.kinds) {
      lines.push(`  [${kind.oracle}] ${kind.signature}  (${kind.runs}; path ${kind.firstPath})`);
    }
    for (const kind of report.kinds) {
      const repro = kind.repro;
      if (repro === undefined) continue;
      lines.push('', `${report.target} repro [${kind.oracle}] ${kind.signature}`);
      if (repro.counterexample === undefined) {
        lines.push(
          `  did not reproduce alone (an effect of an earlier run?); first seen at path ${repro.path}`,
        );
        continue;
      }
      lines.push(
        `  seed ${report.seed}, path ${repro.path} (${repro.shrinks} shrinks)`,
        `  replay: npm run fuzz -- --target ${report.target} --seed ${report.seed} --path ${repro.path}`,
      );
      if (repro.detail !== undefined) lines.push(`  detail: ${repro.detail}`);
      lines.push(`  case: ${repro.counterexample}`);
    }
  }
  return lines.join('\n');
}
