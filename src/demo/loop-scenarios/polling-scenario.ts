import { defineTool } from '../../tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { LoopScenario } from './loop-scenario.js';

/** The poll (and round) at which the job reports `done`. */
export const POLLS_UNTIL_DONE = 8;

/**
 * 6. Polling: the same call every round, but the result changes (progress), until the job is done. The
 * same arguments with a new result are progress, not a loop.
 */
export const pollingScenario: LoopScenario = {
  id: 6,
  name: 'polling until done',
  description: `getJobStatus with the same arguments; progress changes; "done" at round ${POLLS_UNTIL_DONE}`,
  legitimate: true,
  build() {
    let polls = 0;
    const tool = defineTool({
      name: 'getJobStatus',
      description: 'The state of an export job: running (with progress) or done.',
      input: {
        type: 'object',
        properties: { jobId: { type: 'string' } },
        required: ['jobId'],
        additionalProperties: false,
      },
      effect: 'read',
      execute: ({ jobId }: { jobId: string }) => {
        polls++;
        if (polls >= POLLS_UNTIL_DONE) return { jobId, state: 'done', progress: 100, url: '/exports/7.csv' };
        return { jobId, state: 'running', progress: polls * 12 };
      },
    });
    const model = createAgentModel({
      decide: ({ lastTool }) => {
        if (lastTool?.content.includes('"state":"done"') === true) {
          return { answer: 'The export is ready: /exports/7.csv' };
        }
        return { calls: [{ name: 'getJobStatus', arguments: { jobId: 'job-7' } }] };
      },
      lastWords: 'The export is still running.',
    });
    return {
      model,
      tools: [tool],
      messages: [{ role: 'user', content: 'Tell me when export job-7 is ready.' }],
      expected: 'completed',
    };
  },
};
