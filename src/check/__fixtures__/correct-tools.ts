import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';

/** A tool that keeps its contract: strict-mode input, an output schema, a formatter and examples. */
export const getOrderStatus = defineTool({
  name: 'getOrderStatus',
  description: 'Returns whether an order succeeded or failed: SUCCESS or FAILED.',
  effect: 'read',
  input: {
    type: 'object',
    properties: { orderId: { type: 'string', pattern: '^[0-9]+$', description: 'Digits only.' } },
    required: ['orderId'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['SUCCESS', 'FAILED'] } },
    required: ['status'],
    additionalProperties: false,
  },
  execute: ({ orderId }: { orderId: string }) => ({ status: orderId === '13' ? 'FAILED' : 'SUCCESS' }),
  formatResult: (result) => `order status: ${result.status}`,
  examples: [
    { name: 'paid order', input: { orderId: '42' }, output: { status: 'SUCCESS' } },
    { name: 'cancelled order', input: { orderId: '13' }, output: { status: 'FAILED' } },
    // No expected output: the result must only satisfy the output schema.
    { input: { orderId: '7' } },
  ],
});

/** Also correct, with zod: its input is fine for every provider but not for OpenAI strict mode (warnings). */
export const searchDocs = defineTool({
  name: 'searchDocs',
  description: 'Searches the documentation and returns the titles of matching pages.',
  effect: 'read',
  input: z.object({ query: z.string().min(1), limit: z.number().int().max(20).optional() }),
  output: z.object({ titles: z.array(z.string()) }),
  execute: async ({ query, limit }, { signal }) => {
    signal.throwIfAborted();
    const pages = ['Getting started', 'Output contracts', 'Timeouts'];
    return { titles: pages.filter((title) => title.toLowerCase().includes(query)).slice(0, limit ?? 10) };
  },
  examples: [{ name: 'contracts', input: { query: 'contract' }, output: { titles: ['Output contracts'] } }],
});

/** The same tools again in a list: each is checked once. */
export const tools = [getOrderStatus, searchDocs];
