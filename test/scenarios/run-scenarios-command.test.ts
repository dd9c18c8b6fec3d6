import { describe, expect, it } from 'vitest';
import { type CapturedRun, runCaptured } from '../../src/cli/__fixtures__/run-captured.js';
import { KNOWN_GUARD_GAPS } from './__fixtures__/known-guard-gaps.js';
import { KNOWN_V3_FAILURES } from './__fixtures__/known-v3-failures.js';
import { NARROW_WIDTH } from './format-scenario-summary.js';
import type { LoopScenario } from './loop-scenario.js';
import { loopScenarios, scenarioNamed } from './loop-scenarios.js';
import { runScenariosCommand } from './run-scenarios-command.js';

/** Runs the command in this process, writing into strings. */
function scenarios(args: string[], only?: readonly LoopScenario[]): Promise<CapturedRun> {
  return runCaptured((io) => runScenariosCommand(args, io, only));
}

/** Two scenarios for the forms: one that ends as it states, one v3 scenario that fails today. */
// One that ends as it states, one of the v3 set, and one made to fail: a loop said to complete.
const FEW = [
  scenarioNamed('contract-mismatch loop'),
  scenarioNamed('wizard: Next acks {"ok":true}, new step'),
  {
    ...scenarioNamed('page numbers the service ignores'),
    kind: 'legitimate',
    expected: 'completed',
  } as const,
];

describe('npm run scenarios', () => {
  it('prints the narrow table, its totals, and exits 0 only when every scenario ended as expected', async () => {
    const { stdout, code } = await scenarios([]);
    const lines = stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(NARROW_WIDTH);
    const rows = lines.slice(0, lines.indexOf('')).filter((line) => /^\| \d+ +\|/.test(line));
    expect(rows.map((line) => Number(line.split('|')[1]))).toEqual(loopScenarios.map((s) => s.id));
    for (const policy of [
      'guarded \\(defaults\\)',
      'cap 10, guard off',
      'cap 20, guard off',
      'cap 25, guard off',
    ])
      expect(stdout).toMatch(new RegExp(`^\\| v2 +\\| ${policy} +\\| \\d+/\\d+ `, 'm'));
    expect(stdout).toContain('v3 by class');
    const known = Object.keys(KNOWN_GUARD_GAPS).length + Object.keys(KNOWN_V3_FAILURES).length;
    expect(code).toBe(known === 0 ? 0 : 1);
    expect(stdout.includes(`not as expected (${known}):`)).toBe(known > 0);
  }, 60_000);

  it('--wide prints every column, the step caps per scenario, wider than a terminal', async () => {
    const { stdout, code } = await scenarios(['--wide'], FEW);
    expect(stdout).toMatch(/^\| # +\| family +\| scenario +\| kind +\| outcome +\| reason /);
    expect(stdout).toContain('| MAX_ROUND_TRIPS at 10, 9 wasted |');
    expect(stdout).toMatch(/^\| \d+ +\| v3 ack-new-state +\| wizard: Next acks/m);
    expect(Math.max(...stdout.split('\n').map((line) => line.length))).toBeGreaterThan(NARROW_WIDTH);
    expect(code).toBe(1);
  });

  it('--json prints the report as JSON, with the same exit code', async () => {
    const { stdout, code } = await scenarios(['--json'], FEW.slice(0, 1));
    const json = JSON.parse(stdout);
    expect(json.scenarios.map((s: { name: string }) => s.name)).toEqual(['contract-mismatch loop']);
    expect(json.allAsExpected).toBe(true);
    expect(code).toBe(0);
    const failing = await scenarios(['--json'], FEW.slice(1));
    const [passed, failed] = JSON.parse(failing.stdout).scenarios;
    expect(passed.problems).toEqual([]);
    expect(failed.problems[0]).toMatch(/^expected completed, got stopped \(LOOP_DETECTED\)/);
    expect(failing.code).toBe(1);
  });

  it('exits 2 with its usage on an unknown argument, or one too many', async () => {
    for (const args of [['--nope'], ['--wide', '--json'], ['--report', 'folder', 'more']]) {
      const { code, stderr } = await scenarios(args, FEW);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain(`unknown argument: ${args.at(-1)}`);
      expect(stderr).toContain('Usage: npm run scenarios');
    }
  });

  it('prints its usage on --help', async () => {
    const { code, stdout } = await scenarios(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--wide');
    expect(stdout).toContain('--json');
  });
});
