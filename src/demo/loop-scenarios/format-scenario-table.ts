import { type PolicyRun, type ScenarioRow, STEP_CAP_POLICIES } from './run-loop-scenarios.js';

/**
 * The scenario table: the guarded run's outcome, reason, round trips, wasted round trips and tool calls,
 * the same scenario under each step cap (round trips, outcome, wasted), and whether the guarded stop was
 * right. Then one line per policy with its totals. Pure.
 */
export function formatScenarioTable(rows: readonly ScenarioRow[]): string {
  const capNames = rows[0]?.stepCaps.map((run) => run.policy) ?? [];
  const header = [
    '#',
    'scenario',
    'legit',
    'outcome',
    'reason',
    'round trips',
    'wasted',
    'tool calls',
    ...capNames.map((name) => `${name}, guard off`),
    'right',
  ];
  const body = rows.map((row) => [
    String(row.id),
    row.name,
    row.legitimate ? 'yes' : 'no',
    row.guarded.outcome.type,
    row.guarded.reason ?? '-',
    String(row.guarded.roundTrips),
    String(row.guarded.wastedRoundTrips),
    String(row.guarded.toolCalls),
    ...row.stepCaps.map(capCell),
    rightCell(row),
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const policies = [
    { name: 'guarded (toolwarden defaults)', runs: rows.map((row) => row.guarded) },
    ...capNames.map((name, index) => ({
      name: `${name}, guard off`,
      runs: rows.flatMap((row) => row.stepCaps[index] ?? []),
    })),
  ];
  return [
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...body.map(line),
    '',
    ...policies.map(({ name, runs }) => totalsLine(name, runs)),
    '',
    `step caps (semantic guard off): ${STEP_CAP_POLICIES.map((p) => `${p.name} = ${p.mimics ?? p.name}`).join(', ')}.`,
    "wasted: guarded = the guard's count (rounds of the detected pattern beyond its first occurrence);",
    'step caps = round trips from the first round that brought no new (tool, result) pair (legit tasks: 0).',
    'right: legitimate tasks completed, loops stopped with loop-detected, the runaway stopped by max-round-trips.',
  ].join('\n');
}

function capCell(run: PolicyRun): string {
  const wasted = run.wastedRoundTrips > 0 ? `, ${run.wastedRoundTrips} wasted` : '';
  if (run.outcome.type === 'completed') return `completed in ${run.roundTrips}`;
  return `${run.reason ?? 'stopped'} at ${run.roundTrips}${wasted}`;
}

function rightCell(row: ScenarioRow): string {
  if (!row.guarded.wellFormed) return 'NO (history malformed)';
  return row.guarded.right ? 'yes' : `NO (expected ${row.expected})`;
}

function totalsLine(name: string, runs: readonly PolicyRun[]): string {
  const sum = (pick: (run: PolicyRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const right = runs.filter((run) => run.right && run.wellFormed).length;
  return `${name}: right ${right}/${runs.length}, round trips ${sum((run) => run.roundTrips)}, wasted ${sum((run) => run.wastedRoundTrips)}, tool calls ${sum((run) => run.toolCalls)}`;
}
