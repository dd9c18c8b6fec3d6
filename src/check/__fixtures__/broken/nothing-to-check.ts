import { defineTool } from '../../../tools/define-tool.js';

/** No output schema and no examples: nothing holds this tool to what its description says. */
export const lookupCustomer = defineTool({
  name: 'lookupCustomer',
  description: 'Finds a customer by email.',
  effect: 'read',
  input: {
    type: 'object',
    properties: { email: { type: 'string' } },
    required: ['email'],
    additionalProperties: false,
  },
  execute: ({ email }: { email: string }) => ({ id: 'c_1', email }),
});
