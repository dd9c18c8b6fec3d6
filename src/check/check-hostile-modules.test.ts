import { describe, expect, it } from 'vitest';
import { type CheckRunner, runCheckInChild } from '../cli/run-check-in-child.js';
import { runCheck } from './__fixtures__/run-check-command.js';
import type { CheckReport } from './check-report.js';

const hostile = (name: string) => `src/check/__fixtures__/hostile/${name}`;

/** The command's own runner, a child process, through the TypeScript loader (vitest's is not inherited). */
const inChild: CheckRunner = (run) => runCheckInChild(run, { execArgv: ['--import', 'tsx'] });

/** A stack trace's frame line, as Node prints one for a crash. */
const STACK_FRAME = /^\s+at /m;

// The command with its real runner: the module is loaded and its examples run in a child process,
// with small limits so that each case ends fast. These run side by side; a child starts tsx, so allow
// for a loaded machine.
describe.concurrent('toolwarden check: a tools module that hangs or crashes its process', {
  timeout: 60_000,
}, () => {
  it('infinite loop at import: timed out (exit 4), the loading process stopped', async () => {
    const { code, stdout, stderr } = await runCheck(
      [hostile('loops-at-import.ts'), '--load-timeout-ms', '500'],
      inChild,
    );
    expect(code).toBe(4);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `toolwarden check: timed out: importing ${hostile('loops-at-import.ts')} did not finish within 500 ms (a loop at import, or a top-level await that never settles); the process loading it was stopped. If it is only slow, raise --load-timeout-ms\n`,
    );
  });

  it('top-level await that never settles, with a live setInterval: timed out (exit 4)', async () => {
    const { code, stderr } = await runCheck(
      [hostile('awaits-forever-at-import.ts'), '--load-timeout-ms', '500'],
      inChild,
    );
    expect(code).toBe(4);
    expect(stderr).toContain(
      `timed out: importing ${hostile('awaits-forever-at-import.ts')} did not finish within 500 ms`,
    );
  });

  it('top-level await on nothing (the process runs dry): could not load (exit 3), not exit 0', async () => {
    const { code, stdout, stderr } = await runCheck([hostile('awaits-nothing-at-import.ts')], inChild);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `toolwarden check: could not load: importing ${hostile('awaits-nothing-at-import.ts')} never finished: a top-level await waits on something that can never settle (the process had nothing left to run)\n`,
    );
  });

  it('example whose execute loops synchronously, even with --timeout-ms: timed out (exit 4), the tools before it reported', async () => {
    const { code, stdout, stderr } = await runCheck(
      [hostile('sync-loop-example.ts'), '--json', '--timeout-ms', '100'],
      inChild,
    );
    expect(code).toBe(4);
    const report = JSON.parse(stdout) as CheckReport;
    expect(report.status).toBe('fail');
    expect(report.tools.map((tool) => [tool.name, tool.status])).toEqual([['getOrderStatus', 'pass']]);
    const message =
      'example "spins" of spinsForever did not finish within 1400 ms, though each of its steps had 100 ms (--timeout-ms): a synchronous loop, which no timer can interrupt? The process running it was stopped; spinsForever was not checked';
    expect(report.moduleFindings).toEqual([{ severity: 'error', code: 'CHECK_INCOMPLETE', message }]);
    expect(stderr).toBe(`toolwarden check: timed out: ${message}\n`);
  });

  it('a late unhandled rejection in an example: reported in the report (exit 1), not a crash', async () => {
    const { code, stdout, stderr } = await runCheck([hostile('late-rejection.ts'), '--json'], inChild);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as CheckReport;
    expect(report.tools.map((tool) => [tool.name, tool.status])).toEqual([['failsLater', 'pass']]);
    expect(report.moduleFindings).toEqual([
      {
        severity: 'error',
        code: 'UNCAUGHT_ERROR',
        message:
          'tool code threw outside any example (an unhandled rejection or a throwing callback), after example "returns at once" of failsLater started: Error: late background failure',
      },
    ]);
  });
});

// What the loader refuses: the same in any process, so these run in this one.
describe('toolwarden check: a tools module the loader refuses', () => {
  it('a module that exports then(){} (a thenable): could not load (exit 3), not exit 0 with nothing checked', async () => {
    const { code, stdout, stderr } = await runCheck([hostile('exports-then.mjs')]);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `toolwarden check: could not load: ${hostile('exports-then.mjs')} exports a function named then, which makes the module a thenable: await import() hands the module to that function instead of returning it, and waits for it to call back (this is what loading it would do in your app too); rename that export\n`,
    );
  });

  it('a revoked Proxy as the default export: could not load (exit 3), a clear reason, no stack trace', async () => {
    const { code, stdout, stderr } = await runCheck([hostile('revoked-proxy-default.mjs')]);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(stderr).toBe(
      `toolwarden check: could not load: ${hostile('revoked-proxy-default.mjs')} exports no tools (default cannot be read: TypeError: Cannot perform 'IsArray' on a proxy that has been revoked); export tools made by defineTool, their definitions, or an array of them\n`,
    );
  });

  it('a revoked Proxy beside a tool: the tool is checked, the export named in a warning (exit 0)', async () => {
    const { code, stdout } = await runCheck([hostile('unreadable-beside-tool.mjs')]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "warning EXPORT_UNREADABLE: the export settings cannot be read, so it was not checked: TypeError: Cannot perform 'IsArray' on a proxy that has been revoked",
    );
    expect(stdout).toContain('WARN  (module)');
    expect(stdout).toContain('PASS  ping  1 example');
  });

  it("ANSI escapes and line breaks in a module's error text: stripped before they reach the terminal", async () => {
    const { code, stderr } = await runCheck([hostile('ansi-error-at-import.mjs')]);
    expect(code).toBe(3);
    expect(stderr).toBe(
      `toolwarden check: could not load: importing ${hostile('ansi-error-at-import.mjs')} threw Error: ORDERS_DB_URL is not set PASS  everything\n`,
    );
  });
});
