import type { ToolDefinition } from '../../../tools/define-tool.js';

/** A dotted name, as many APIs spell operations: every provider rejects it. Its example still runs. */
export const queryOrderStatusDotted: ToolDefinition<{ orderId: string }, { status: string }> = {
  name: 'query.order.status',
  description: 'Returns the status of an order: SUCCESS or FAILED.',
  effect: 'read',
  input: {
    type: 'object',
    properties: { orderId: { type: 'string' } },
    required: ['orderId'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['SUCCESS', 'FAILED'] } },
    required: ['status'],
    additionalProperties: false,
  },
  execute: () => ({ status: 'SUCCESS' }),
  examples: [{ name: 'paid order', input: { orderId: '42' }, output: { status: 'SUCCESS' } }],
};
