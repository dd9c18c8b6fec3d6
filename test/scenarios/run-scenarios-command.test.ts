import { describe, expect, it } from 'vitest';
import { type CapturedRun, runCaptured } from '../../src/cli/__fixtures__/run-captured.js';
import { KNOWN_GUARD_GAPS } from './__fixtures__/known-guard-gaps.js';
import { loopScenarios } from './loop-scenarios.js';
import { runScenariosCommand } from './run-scenarios-command.js';

/** Runs the command in this process, writing into strings. */
function scenarios(...args: string[]): Promise<CapturedRun> {
  return runCaptured((io) => runScenariosCommand(args, io));
}

describe('npm run scenarios', () => {
  it('prints the scenario table, its totals, and exits 0 only when every scenario ended as expected', async () => {
    const { stdout, code } = await scenarios();
    const rows = stdout.split('\n').filter((line) => /^\| \d+ +\|/.test(line));
    expect(rows.map((line) => line.split('|')[3]?.trim())).toEqual(loopScenarios.map((s) => s.name));
    expect(stdout).toMatch(
      /^guarded \(toolwarden defaults\): legitimate completed \d+\/\d+, loops stopped in time/m,
    );
    for (const cap of ['cap 10', 'cap 20', 'cap 25'])
      expect(stdout).toMatch(new RegExp(`^${cap}, guard off: `, 'm'));
    const gaps = Object.keys(KNOWN_GUARD_GAPS).length;
    expect(code).toBe(gaps === 0 ? 0 : 1);
    expect(stdout.includes('not as expected:')).toBe(gaps > 0);
  });

  it('exits 2 with its usage on an unknown argument', async () => {
    const { code, stderr } = await scenarios('--nope');
    expect(code).toBe(2);
    expect(stderr).toContain('unknown argument: --nope');
    expect(stderr).toContain('Usage: npm run scenarios');
  });
});
