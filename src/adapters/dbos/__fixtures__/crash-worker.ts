// The crash test's process: `crash-worker.ts <start|recover> <setup JSON> <points JSON>`.
//   start:   runs one turn per crash point (session `s-<point>`, user message the session) and one that
//            is not interrupted (`s-control`). A point `after-<k>` stops its turn once step k is
//            checkpointed; `before-<k>` once step k did its work (the tool ran, its record was written),
//            before DBOS checkpointed it. When every turn stopped at its point and the control turn ended
//            (its outcome printed), the process dies: process.exit(1), nothing flushed or closed.
//   recover: launches (DBOS recovers every unfinished turn) and prints each turn's outcome and steps.
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { DbosWorkflows } from '../dbos-workflows.js';
import { report, setUpWorker, summary } from './dbos-worker.js';

const [mode = '', setupJson = '{}', pointsJson = '[]'] = process.argv.slice(2);
const points: string[] = JSON.parse(pointsJson);
const sessions = [...points.map((point) => `s-${point}`), 's-control'];

let stopped = 0;
let allStopped: () => void = () => {};
const everyTurnStopped = new Promise<void>((resolve) => {
  allStopped = resolve;
});
/** Stops this turn here for good: the process dies with it. */
function stop(): Promise<never> {
  stopped += 1;
  if (stopped === points.length) allStopped();
  return new Promise<never>(() => {});
}

const stepsSeen = new Map<string, number>();
async function runStep<R>(func: () => Promise<R>, config?: { name?: string }): Promise<R> {
  const workflowId = DBOS.workflowID ?? '';
  const point = workflowId.slice(2, workflowId.indexOf(':'));
  if (mode !== 'start' || DBOS.isInStep() || !points.includes(point)) return DBOS.runStep(func, config);
  const k = stepsSeen.get(workflowId) ?? 0;
  stepsSeen.set(workflowId, k + 1);
  const result = await DBOS.runStep(async () => {
    const value = await func();
    if (point === `before-${k}`) await stop();
    return value;
  }, config);
  if (point === `after-${k}`) await stop();
  return result;
}
const dbos = new Proxy(DBOS, {
  get(target, name) {
    if (name === 'runStep') return runStep;
    const value: unknown = Reflect.get(target, name);
    return typeof value === 'function' ? value.bind(target) : value;
  },
}) as unknown as DbosWorkflows;

const { turns } = await setUpWorker({ ...JSON.parse(setupJson), dbos });
await DBOS.launch();
const ids = sessions.map((sessionId) => ({ sessionId, turnId: 'turn-1' }));
if (mode === 'start') {
  const control = turns.run({
    sessionId: 's-control',
    turnId: 'turn-1',
    messages: [{ role: 'user', content: 's-control' }],
  });
  for (const id of ids.slice(0, -1)) {
    void turns.run({ ...id, messages: [{ role: 'user', content: id.sessionId }] });
  }
  const [outcome] = await Promise.all([control, points.length === 0 ? undefined : everyTurnStopped]);
  report({ session: 's-control', outcome: summary(outcome) });
  process.exit(1);
}
for (const id of ids.slice(0, -1)) {
  const workflowId = turns.workflowId(id);
  const outcome = await DBOS.retrieveWorkflow<Parameters<typeof summary>[0]>(workflowId).getResult();
  const steps = await DBOS.listWorkflowSteps(workflowId);
  report({ session: id.sessionId, outcome: summary(outcome), steps: steps?.map((step) => step.name) });
}
await DBOS.shutdown();
process.exit(0);
