import { defineTool } from '../../tools/define-tool.js';

/** A refund that needs a person's approval, and a read that does not: the trivial policy of the resume tests. */
export const needsApproval = ({ toolName }: { readonly toolName: string }) =>
  toolName === 'refundOrder'
    ? { type: 'ask' as const, reason: 'refunds need a person', payload: { amount: 42 } }
    : { type: 'run' as const };

/** The shop's two tools, recording what they did. */
export function refundShop() {
  const refunds: string[] = [];
  const reads: string[] = [];
  const orderInput = {
    type: 'object',
    properties: { orderId: { type: 'string' } },
    required: ['orderId'],
  } as const;
  const tools = [
    defineTool({
      name: 'refundOrder',
      description: 'Refunds an order.',
      effect: 'write',
      input: orderInput,
      execute: ({ orderId }: { orderId: string }) => {
        refunds.push(orderId);
        return { orderId, refunded: true };
      },
    }),
    defineTool({
      name: 'getOrder',
      description: 'Reads an order.',
      effect: 'read',
      input: orderInput,
      execute: ({ orderId }: { orderId: string }) => {
        reads.push(orderId);
        return { orderId, status: refunds.includes(orderId) ? 'refunded' : 'paid' };
      },
    }),
  ];
  return { tools, refunds, reads };
}
