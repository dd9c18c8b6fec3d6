import { describe, expect, it } from 'vitest';
import type { CheckModuleProgress } from '../check/check-module.js';
import type { CheckReport, ToolCheck } from '../check/check-report.js';
import { checkCommandOutcome } from './check-command-outcome.js';
import type { CheckRunEnd } from './run-check-in-child.js';

const limits = { startMs: 30_000, loadMs: 10_000, stepMs: 21_000 };
const passed = (name: string): ToolCheck => ({
  name,
  status: 'pass',
  findings: [],
  examplesRun: 1,
  skippedExamples: [],
});

function outcome(progress: CheckModuleProgress[], end: CheckRunEnd) {
  return checkCommandOutcome({
    modulePath: 'tools.js',
    format: 'json',
    limits,
    timeoutMs: 5_000,
    progress,
    end,
  });
}

describe('checkCommandOutcome: how a check that did not end by itself is reported', () => {
  it('the process exited during an example (tool code called process.exit): exit 1, the tools checked so far', () => {
    const { exitCode, stdout, stderr } = outcome(
      [
        { type: 'loaded', tools: 3 },
        { type: 'example', tool: 'a', example: '#1' },
        { type: 'tool', check: passed('a') },
        { type: 'example', tool: 'b\u001b[31m', example: 'quits' },
      ],
      {
        kind: 'failed',
        reason: 'the process running it exited with code 0 (does tool code call process.exit()?)',
      },
    );
    expect(exitCode).toBe(1);
    const message =
      'the check ended during example "quits" of b: the process running it exited with code 0 (does tool code call process.exit()?); b and the 1 tool after it were not checked';
    const report = JSON.parse(stdout) as CheckReport;
    expect(report.tools.map((tool) => tool.name)).toEqual(['a']);
    expect(report.moduleFindings).toEqual([{ severity: 'error', code: 'CHECK_INCOMPLETE', message }]);
    expect(stderr).toBe(`toolwarden check: ${message}\n`);
  });

  it('the process ended before the import finished: could not load (exit 3), with what else tool code threw', () => {
    const { exitCode, stdout, stderr } = outcome([{ type: 'stray', error: 'Error: timer' }], {
      kind: 'failed',
      reason: 'the process running it was killed (SIGSEGV)',
    });
    expect(exitCode).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'toolwarden check: could not load: importing tools.js did not finish: the process running it was killed (SIGSEGV)\n' +
        'toolwarden check: also, tool code threw outside any example (an unhandled rejection or a throwing callback), while the module loaded: Error: timer\n',
    );
  });

  it('stuck between examples (defining a tool): timed out (exit 4), naming the last tool checked', () => {
    const { exitCode, stderr } = outcome(
      [
        { type: 'loaded', tools: 2 },
        { type: 'example', tool: 'a', example: '#1' },
        { type: 'tool', check: passed('a') },
      ],
      { kind: 'timed-out', during: 'check' },
    );
    expect(exitCode).toBe(4);
    expect(stderr).toBe(
      "toolwarden check: timed out: the check did not get past a within 21000 ms: a synchronous loop, which no timer can interrupt? The process running it was stopped; 1 of the module's 2 tools was not checked\n",
    );
  });

  it('the process did not start: timed out (exit 4)', () => {
    expect(outcome([], { kind: 'timed-out', during: 'start' })).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'toolwarden check: timed out: the process to load tools.js in did not start within 30000 ms\n',
    });
  });
});
