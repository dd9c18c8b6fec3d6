import type { ToolCall } from '../../core/message.js';
import { defineTool } from '../../tools/define-tool.js';

/** What the model asks for in the demo: a refund of 250 on A-1 (a write that needs approval) and a read of A-1. */
export const DEMO_ROUND: readonly ToolCall[] = [
  { id: 'r1', name: 'refundOrder', arguments: '{"orderId":"A-1","amount":250}' },
  { id: 'g1', name: 'getOrder', arguments: '{"orderId":"A-1"}' },
];

/**
 * A refund that needs a person's approval (`needsApproval`) and a read that does not: the demo's shop,
 * and the approval tests'. Each instance records what its tools did, as a process of its own would.
 */
export function approvalDemoShop() {
  const refunds: string[] = [];
  const reads: string[] = [];
  const tools = [
    defineTool({
      name: 'refundOrder',
      description: 'Refunds an amount on an order.',
      effect: 'write',
      input: {
        type: 'object',
        properties: { orderId: { type: 'string' }, amount: { type: 'number' } },
        required: ['orderId', 'amount'],
      },
      needsApproval: true,
      execute: ({ orderId, amount }: { orderId: string; amount: number }) => {
        refunds.push(orderId);
        return { orderId, refunded: amount };
      },
    }),
    defineTool({
      name: 'getOrder',
      description: 'Reads an order.',
      effect: 'read',
      input: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
      execute: ({ orderId }: { orderId: string }) => {
        reads.push(orderId);
        return { orderId, status: refunds.includes(orderId) ? 'refunded' : 'paid' };
      },
    }),
  ];
  return { tools, refunds, reads };
}
