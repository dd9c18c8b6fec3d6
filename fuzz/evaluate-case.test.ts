import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrashMonitor, evaluateCase } from './evaluate-case.js';
import type { Finding, FuzzTarget, StartedRun } from './oracle.js';

/** A target whose one run is `start`: the harness's own oracles, checked so the fuzz suite cannot go blind. */
function targetOf(start: () => StartedRun): FuzzTarget<undefined> {
  return { name: 'chain', arbitrary: undefined as never, start };
}

const quiet = (promise: Promise<unknown>): StartedRun => ({
  promise,
  judge: () => [],
  cancel: () => undefined,
});
const oracles = (findings: readonly Finding[]) => findings.map((finding) => finding.oracle);

describe('evaluateCase', () => {
  const monitor = new CrashMonitor();
  beforeEach(() => monitor.start());
  afterEach(() => monitor.stop());

  it('counts an unhandled rejection of the run as a crash, though the run itself resolved', async () => {
    const target = targetOf(() => {
      Promise.reject(new Error('left behind'));
      return quiet(Promise.resolve());
    });
    const findings = await evaluateCase(target, undefined, { deadlineMs: 1_000, monitor });
    expect(findings).toEqual([
      expect.objectContaining({ oracle: 'crash', signature: 'unhandledRejection: Error: left behind' }),
    ]);
  });

  it('counts a run that never settles as a hang, and cancels it', async () => {
    let cancelled = false;
    const target = targetOf(() => ({
      promise: new Promise(() => undefined),
      judge: () => [],
      cancel: () => {
        cancelled = true;
      },
    }));
    expect(oracles(await evaluateCase(target, undefined, { deadlineMs: 20, monitor }))).toEqual(['hang']);
    expect(cancelled).toBe(true);
  });

  it('counts a polluted prototype once, and removes the key', async () => {
    const target = targetOf(() =>
      quiet(
        Promise.resolve().then(() => {
          (Object.prototype as Record<string, unknown>).fuzzPolluted = true;
        }),
      ),
    );
    expect(oracles(await evaluateCase(target, undefined, { deadlineMs: 1_000, monitor }))).toEqual([
      'prototype-pollution',
    ]);
    expect(({} as Record<string, unknown>).fuzzPolluted).toBeUndefined();
  });

  it("passes the settled outcome to the target's judge, and adds nothing for a clean run", async () => {
    const judged: unknown[] = [];
    const target = targetOf(() => ({
      promise: Promise.reject(new Error('no')),
      judge: (settled) => {
        judged.push(settled);
        return [];
      },
      cancel: () => undefined,
    }));
    expect(await evaluateCase(target, undefined, { deadlineMs: 1_000, monitor })).toEqual([]);
    expect(judged).toEqual([{ status: 'rejected', error: new Error('no') }]);
  });
});
