import { defineTool } from '../../../tools/define-tool.js';

const statusSchema = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['SUCCESS', 'FAILED'] } },
  required: ['status'],
  additionalProperties: false,
} as const;

const orderInput = {
  type: 'object',
  properties: { orderId: { type: 'string' } },
  required: ['orderId'],
  additionalProperties: false,
} as const;

/** The description and the schema promise SUCCESS or FAILED; the service answers in its own envelope. */
export const queryOrderStatus = defineTool({
  name: 'queryOrderStatus',
  description: 'Returns the status of an order: SUCCESS or FAILED.',
  effect: 'read',
  input: orderInput,
  output: statusSchema,
  execute: async (_args: { orderId: string }) => ({ code: 0, data: { state: 'PAID' } }),
  examples: [{ name: 'paid order', input: { orderId: '42' } }],
});

/** Same promise, right shape, but a verdict outside the declared set. */
export const queryPaymentStatus = defineTool({
  name: 'queryPaymentStatus',
  description: 'Returns the status of a payment: SUCCESS or FAILED.',
  effect: 'read',
  input: orderInput,
  output: statusSchema,
  execute: (_args: { orderId: string }) => ({ status: 'PAID' }),
  examples: [{ name: 'paid payment', input: { orderId: '42' } }],
});
