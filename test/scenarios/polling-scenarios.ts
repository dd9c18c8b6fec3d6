import { explainStop } from '../../src/run/explain-stop.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** The poll (and round) at which the job with progress reports `done`. */
export const POLLS_UNTIL_DONE = 8;
/** `{"state":"running"}` answers of the unchanged job before it is done. */
export const UNCHANGED_RUNNING_POLLS = 8;
/** Unchanged polls the never-finishing job is allowed, by a per-loop hint. */
export const NEVER_DONE_MAX_UNCHANGED = 5;

/** getJobStatus answering `{"state":"running"}` `running` times, then done (never, for Infinity). */
function jobStatusTool(running: number, loop?: { polled: boolean }) {
  let polls = 0;
  return defineTool({
    name: 'getJobStatus',
    description: 'The state of an export job: running, or done with the URL of the file.',
    input: stringInput('jobId'),
    effect: 'read',
    ...(loop === undefined ? {} : { loop }),
    execute: () => (++polls > running ? { state: 'done', url: '/exports/7.csv' } : { state: 'running' }),
  });
}

/** Polls job-7 every round (with `wait` between polls when there is one) until it reads `done`. */
function pollUntilDone(withWait = false) {
  return createAgentModel({
    decide: ({ lastTool }) => {
      if (lastTool?.content.includes('"state":"done"') === true) {
        return { answer: 'The export is ready: /exports/7.csv' };
      }
      if (withWait && lastTool?.name === 'getJobStatus') {
        return { calls: [{ name: 'wait', arguments: { seconds: 30 } }] };
      }
      return { calls: [{ name: 'getJobStatus', arguments: { jobId: 'job-7' } }] };
    },
    lastWords: 'The export is still running.',
  });
}

const exportRequest = [{ role: 'user', content: 'Tell me when export job-7 is ready.' }] as const;

export const pollingScenarios: readonly ScenarioSpec[] = [
  {
    family: 'polling',
    name: 'polling with progress',
    description: `getJobStatus with the same arguments; progress changes; "done" at round ${POLLS_UNTIL_DONE}`,
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let polls = 0;
      const tool = defineTool({
        name: 'getJobStatus',
        description: 'The state of an export job: running (with progress) or done.',
        input: stringInput('jobId'),
        effect: 'read',
        execute: ({ jobId }: { jobId: string }) => {
          polls++;
          if (polls >= POLLS_UNTIL_DONE)
            return { jobId, state: 'done', progress: 100, url: '/exports/7.csv' };
          return { jobId, state: 'running', progress: polls * 12 };
        },
      });
      return { model: pollUntilDone(), tools: [tool], messages: exportRequest };
    },
  },
  {
    family: 'polling',
    name: 'polled job, unchanged until done',
    description: `{"state":"running"} ${UNCHANGED_RUNNING_POLLS} times, then done; the tool declares loop: { polled: true }`,
    kind: 'legitimate',
    expected: 'completed',
    build() {
      return {
        model: pollUntilDone(),
        tools: [jobStatusTool(UNCHANGED_RUNNING_POLLS, { polled: true })],
        messages: exportRequest,
        check: ({ roundTrips }) =>
          roundTrips === UNCHANGED_RUNNING_POLLS + 2
            ? []
            : [`expected ${UNCHANGED_RUNNING_POLLS + 2} rounds, got ${roundTrips}`],
      };
    },
  },
  {
    family: 'polling',
    name: 'unhinted poll (contract-mismatch look-alike)',
    description: 'the same job without the polled hint: indistinguishable from the seed loop, so stopped',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 2,
    build() {
      return {
        model: pollUntilDone(),
        tools: [jobStatusTool(UNCHANGED_RUNNING_POLLS)],
        messages: exportRequest,
        // The stop's explanation (for the developer) says how to declare a pollable tool.
        check: ({ outcome }) =>
          outcome.type === 'stopped' && explainStop(outcome).includes('loop: { polled: true }')
            ? []
            : ['explainStop does not name the polled hint (loop: { polled: true })'],
      };
    },
  },
  {
    family: 'polling',
    name: 'poll, wait, poll',
    description:
      'getJobStatus and wait({seconds:30}) in turn, both declared polled; running 4 times, then done',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const wait = defineTool({
        name: 'wait',
        description: 'Waits the given number of seconds (at most 60), then returns.',
        input: {
          type: 'object',
          properties: { seconds: { type: 'integer', minimum: 1, maximum: 60 } },
          required: ['seconds'],
          additionalProperties: false,
        },
        effect: 'read',
        // A pacing tool answers the same every time by design: it is declared polled, like the status.
        loop: { polled: true },
        execute: ({ seconds }: { seconds: number }) => ({ waited: seconds }),
      });
      return {
        model: pollUntilDone(true),
        tools: [jobStatusTool(4, { polled: true }), wait],
        messages: exportRequest,
      };
    },
  },
  {
    family: 'polling',
    name: 'polled job that never finishes',
    description: `always {"state":"running"}; a per-loop hint allows ${NEVER_DONE_MAX_UNCHANGED} unchanged polls`,
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'unchanged-poll',
    // The first answer, then the unchanged ones the hint allows; the next one is the loop.
    evidentAt: NEVER_DONE_MAX_UNCHANGED + 2,
    build() {
      return {
        model: pollUntilDone(),
        tools: [jobStatusTool(Number.POSITIVE_INFINITY)],
        messages: exportRequest,
        options: {
          guard: { hints: { getJobStatus: { polled: { maxUnchanged: NEVER_DONE_MAX_UNCHANGED } } } },
        },
      };
    },
  },
  {
    family: 'polling',
    name: 'polled rollout with a clock field',
    description: '{"phase":"rolling-out","checkedAt":<now>} 5 times, then live; the tool is polled',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let polls = 0;
      const tool = defineTool({
        name: 'getDeployment',
        description: 'The phase of a deployment: rolling-out, live or failed.',
        input: stringInput('deploymentId'),
        effect: 'read',
        loop: { polled: true },
        execute: () => {
          polls++;
          const checkedAt = new Date(Date.UTC(2025, 0, 6, 9, 0, polls * 15)).toISOString();
          return { phase: polls > 5 ? 'live' : 'rolling-out', checkedAt };
        },
      });
      const model = createAgentModel({
        decide: ({ lastTool }) =>
          lastTool?.content.includes('"phase":"live"') === true
            ? { answer: 'Deployment d-3 is live.' }
            : { calls: [{ name: 'getDeployment', arguments: { deploymentId: 'd-3' } }] },
        lastWords: 'Deployment d-3 is still rolling out.',
      });
      return { model, tools: [tool], messages: [{ role: 'user', content: 'Is deployment d-3 live yet?' }] };
    },
  },
];
