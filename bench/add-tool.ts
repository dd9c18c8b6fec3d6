import { defineTool } from '../dist/index.js';

/** The tool every benchmark calls: two numbers in, their sum out. */
export const addSchema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

export const add = ({ a, b }: { a: number; b: number }) => ({ sum: a + b });

/** The `add` tool itself, a read. */
export const addTool = defineTool({
  name: 'add',
  description: 'Adds.',
  effect: 'read',
  input: addSchema,
  execute: add,
});
