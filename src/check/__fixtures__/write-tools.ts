import { defineTool } from '../../tools/define-tool.js';

/** How many times each write tool's `execute` ran: a check without --run-writes must leave these at 0. */
export const ran = { refundOrder: 0, cancelOrder: 0 };

const orderInput = {
  type: 'object',
  properties: { orderId: { type: 'string' } },
  required: ['orderId'],
  additionalProperties: false,
} as const;
const refundOutput = {
  type: 'object',
  properties: { refunded: { type: 'boolean' } },
  required: ['refunded'],
  additionalProperties: false,
} as const;

/** A write whose examples are right: skipped unless asked, they pass when run. */
export const refundOrder = defineTool({
  name: 'refundOrder',
  description: 'Refunds an order in full.',
  effect: 'write',
  input: orderInput,
  output: refundOutput,
  execute: () => {
    ran.refundOrder++;
    return { refunded: true };
  },
  examples: [
    { name: 'paid order', input: { orderId: '42' }, output: { refunded: true } },
    { input: { orderId: '43' } },
  ],
});

/** A write whose examples are wrong on paper: the schema checks find it without running anything. */
export const cancelOrder = defineTool({
  name: 'cancelOrder',
  description: 'Cancels an order that has not shipped.',
  effect: 'write',
  input: orderInput,
  output: refundOutput,
  execute: () => {
    ran.cancelOrder++;
    return { refunded: false };
  },
  examples: [
    { name: 'number id', input: { orderId: 7 as unknown as string } },
    { name: 'bad output', input: { orderId: '8' }, output: { refunded: 'yes' as unknown as boolean } },
  ],
});
