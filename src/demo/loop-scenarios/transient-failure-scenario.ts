import { TransientToolError } from '../../errors/transient-tool-error.js';
import { defineTool } from '../../tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { LoopScenario } from './loop-scenario.js';

/** Executions that fail before the service recovers. */
export const TRANSIENT_FAILURES = 2;

/**
 * 4. A flaky service: the tool fails transiently twice, then answers. With `retries: 0` the chain does not
 * retry, so the model sees `TOOL_UNAVAILABLE` and calls again with the same arguments. A retry is not a
 * loop: this must complete with no warning.
 */
export const transientFailureScenario: LoopScenario = {
  id: 4,
  name: 'transient failure, then success',
  description: 'getExchangeRate fails transiently twice (retries: 0), the model re-calls it, it answers',
  legitimate: true,
  build() {
    let executions = 0;
    const tool = defineTool({
      name: 'getExchangeRate',
      description: 'The current exchange rate between two currencies.',
      input: {
        type: 'object',
        properties: { from: { type: 'string' }, to: { type: 'string' } },
        required: ['from', 'to'],
        additionalProperties: false,
      },
      effect: 'read',
      retries: 0,
      execute: ({ from, to }: { from: string; to: string }) => {
        executions++;
        if (executions <= TRANSIENT_FAILURES) {
          throw new TransientToolError({ message: 'rates service returned 503' });
        }
        return { from, to, rate: 1.0842 };
      },
    });
    const model = createAgentModel({
      decide: ({ lastTool }) => {
        if (lastTool !== undefined && !lastTool.isError) return { answer: '1 EUR is 1.0842 USD right now.' };
        return { calls: [{ name: 'getExchangeRate', arguments: { from: 'EUR', to: 'USD' } }] };
      },
      lastWords: 'The rates service is unavailable; please try again later.',
    });
    return {
      model,
      tools: [tool],
      messages: [{ role: 'user', content: 'How many dollars is one euro?' }],
      expected: 'completed',
    };
  },
};
