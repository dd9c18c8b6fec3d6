import type { ToolDefinition } from '../../../tools/define-tool.js';

/**
 * A definition, exported before `defineTool` (which would throw at import and hide every other tool of
 * the module): the checker defines it and reports the schema error for this tool.
 */
export const createInvoice: ToolDefinition<{ amount: number }, { invoiceId: string }> = {
  name: 'createInvoice',
  description: 'Creates an invoice for an amount in cents.',
  effect: 'write',
  // "integr" is not a JSON Schema type.
  input: { type: 'object', properties: { amount: { type: 'integr' } }, required: ['amount'] },
  output: { type: 'object', properties: { invoiceId: { type: 'string' } }, required: ['invoiceId'] },
  execute: ({ amount }) => ({ invoiceId: `inv_${amount}` }),
  examples: [{ input: { amount: 1200 } }],
};
