import type { ReplayMode, TaskReplay } from './replay-bfcl-task.js';

/** A mode as the report and `KNOWN_FALSE_STOPS` name it: `sequential/declared`. */
export function modeName(mode: ReplayMode): string {
  return `${mode.batching}/${mode.effects}`;
}

/**
 * The replays of one mode as text: the totals, then every stop (the task, the turn, the reason and
 * detector, the turn's calls up to the one it stopped at and those it never ran, the guard's rounds),
 * every warning and every problem of the replay itself.
 */
export function formatReplayReport(mode: ReplayMode, replays: readonly TaskReplay[]): string {
  const sum = (pick: (replay: TaskReplay) => number) =>
    replays.reduce((total, replay) => total + pick(replay), 0);
  const stopped = replays.filter((replay) => replay.stop !== undefined);
  const lines = [
    `${modeName(mode)}: ${replays.length} tasks, ${sum((r) => r.turns)} turns, ${sum((r) => r.calls)} calls in ${sum((r) => r.rounds)} rounds; ${stopped.length} stopped, ${sum((r) => r.warnings.length)} warnings, ${sum((r) => r.problems.length)} replay problems`,
  ];
  for (const { id, stop } of stopped) {
    if (stop === undefined) continue;
    const evidence = stop.evidence;
    const detail =
      evidence.kind === 'loop'
        ? ` (${evidence.detector}: ${evidence.toolNames.join(', ')}, ${evidence.occurrences} times, rounds ${evidence.rounds.join(', ')})`
        : ` (${evidence.kind})`;
    lines.push(`  STOP ${id} turn ${stop.turn}: ${stop.reason}${detail}`);
    if (stop.earlier.length > 0) lines.push(`    earlier turns: ${stop.earlier.join('; ')}`);
    lines.push(`    ran: ${stop.ran.join('; ') || '(none)'}`);
    if (stop.notRun.length > 0) lines.push(`    not run: ${stop.notRun.join('; ')}`);
  }
  for (const { id, warnings } of replays) {
    for (const warning of warnings)
      lines.push(`  warn ${id} turn ${warning.turn}: ${warning.detector} (${warning.toolNames.join(', ')})`);
  }
  for (const { id, problems } of replays) {
    for (const problem of problems) lines.push(`  problem ${id}: ${problem}`);
  }
  return lines.join('\n');
}
