import type { CallReport, WrapCallStep } from '../../chain/wrap-call-step.js';
import type { DbosWorkflows } from './dbos-workflows.js';

/** The first and the longest pause between two tries of a call whose store failed, in milliseconds. */
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 5_000;

/**
 * Each admitted call of a durable turn as one DBOS step (`tool:<name>`): its idempotency record and its
 * execution together, so a recovered turn replays the step's checkpoint and never looks at the record
 * outside a step, and a step cut off mid-way runs again and finds its record (a write that ran is
 * answered from it). A call refused because the store failed before anything ran is tried again inside
 * the step, with backoff, for up to `storeWaitMs`: the turn waits for its database (closed: nothing runs
 * meanwhile), as DBOS waits for its own.
 */
export function dbosCallStep(dbos: Pick<DbosWorkflows, 'runStep'>, storeWaitMs: number): WrapCallStep {
  return (call, next) =>
    dbos.runStep(() => untilTheStoreAnswers(next, storeWaitMs), { name: `tool:${call.toolName}` });
}

async function untilTheStoreAnswers(next: () => Promise<CallReport>, waitMs: number): Promise<CallReport> {
  const until = Date.now() + waitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    const report = await next();
    const nothingRan = report.storeFailure !== undefined && report.result.attempts === 0;
    if (!nothingRan || Date.now() + pause > until) return report;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
