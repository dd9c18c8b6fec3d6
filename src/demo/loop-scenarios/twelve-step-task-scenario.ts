import type { CallSpec } from '../../testing/assistant-with-calls.js';
import { type AnyTool, defineTool } from '../../tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { LoopScenario } from './loop-scenario.js';

/** The task's plan: twelve distinct calls, one per round (more than OpenAI Agents SDK's 10 turns). */
export const TWELVE_STEP_PLAN: readonly Omit<CallSpec, 'id'>[] = [
  { name: 'getCustomer', arguments: { customerId: 'c-9' } },
  { name: 'listOrders', arguments: { customerId: 'c-9' } },
  ...['o-1', 'o-2', 'o-3', 'o-4', 'o-5', 'o-6'].map((orderId) => ({
    name: 'getOrder',
    arguments: { orderId },
  })),
  { name: 'getShipment', arguments: { orderId: 'o-2' } },
  { name: 'getShipment', arguments: { orderId: 'o-5' } },
  { name: 'getInvoice', arguments: { customerId: 'c-9', month: '2024-05' } },
  { name: 'getInvoice', arguments: { customerId: 'c-9', month: '2024-06' } },
];

/** A read tool whose result echoes its arguments with a value: distinct calls give distinct results. */
function recordTool(name: string, description: string): AnyTool {
  return defineTool({
    name,
    description,
    effect: 'read',
    execute: (args: Record<string, unknown>) => ({
      ...args,
      found: true,
      record: `${name}:${JSON.stringify(args)}`,
    }),
  });
}

/** 5. Real work that takes twelve rounds: every call is new and every result is new. */
export const twelveStepTaskScenario: LoopScenario = {
  id: 5,
  name: 'legitimate 12-step task',
  description: "a customer's account review: 12 distinct calls over 5 tools, then the answer",
  legitimate: true,
  build() {
    const tools = [
      recordTool('getCustomer', 'A customer record.'),
      recordTool('listOrders', "A customer's orders."),
      recordTool('getOrder', 'One order.'),
      recordTool('getShipment', "An order's shipment."),
      recordTool('getInvoice', "A customer's invoice for one month."),
    ];
    const model = createAgentModel({
      decide: ({ toolMessages }) => {
        const next = TWELVE_STEP_PLAN[toolMessages.length];
        if (next === undefined)
          return { answer: 'Account review of c-9: 6 orders, 2 shipped, invoices paid.' };
        return { calls: [next] };
      },
      lastWords: 'I reviewed part of the account of c-9 before I was stopped.',
    });
    return {
      model,
      tools,
      messages: [{ role: 'user', content: 'Review the account of customer c-9.' }],
      expected: 'completed',
    };
  },
};
