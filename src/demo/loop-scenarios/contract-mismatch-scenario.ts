import { defineTool } from '../../tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { LoopScenario } from './loop-scenario.js';

/**
 * 1. The failure the guard exists for: the description promises `SUCCESS` or `FAILED`, the tool returns
 * `{"code":0,"data":{"state":"PAID"}}`. The model cannot read a verdict, so it asks again, with the same
 * arguments, and gets the same result.
 */
export const contractMismatchScenario: LoopScenario = {
  id: 1,
  name: 'contract-mismatch loop',
  description: 'queryOrderStatus promises SUCCESS/FAILED, returns {"code":0,...}; same call, same result',
  legitimate: false,
  build() {
    const tool = defineTool({
      name: 'queryOrderStatus',
      description: 'Returns the payment status of an order: SUCCESS or FAILED.',
      input: {
        type: 'object',
        properties: { orderId: { type: 'string' } },
        required: ['orderId'],
        additionalProperties: false,
      },
      effect: 'read',
      execute: () => ({ code: 0, data: { state: 'PAID' } }),
    });
    const model = createAgentModel({
      decide: ({ lastTool }) => {
        const verdict = /\b(SUCCESS|FAILED)\b/.exec(lastTool?.content ?? '')?.[1];
        if (verdict !== undefined) return { answer: `Order A-1042: ${verdict}.` };
        return {
          calls: [{ name: 'queryOrderStatus', arguments: { orderId: 'A-1042' } }],
          content: 'Checking whether the payment of order A-1042 succeeded.',
        };
      },
      lastWords: 'I could not get a SUCCESS or FAILED verdict for order A-1042.',
    });
    return {
      model,
      tools: [tool],
      messages: [{ role: 'user', content: 'Did the payment for order A-1042 go through?' }],
      expected: 'loop-detected',
    };
  },
};
