import { defineTool } from '../../../tools/define-tool.js';

const anyObject = { type: 'object', additionalProperties: false } as const;
const idInput = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
  additionalProperties: false,
} as const;

/** Throws a string: not an Error, no message, no stack. */
export const throwsString = defineTool({
  name: 'throwsString',
  description: 'Fails by throwing a string.',
  effect: 'read',
  input: anyObject,
  output: anyObject,
  execute: () => {
    throw 'upstream said no';
  },
  examples: [{ input: {} }],
});

/** Rejects with a plain object. */
export const rejectsObject = defineTool({
  name: 'rejectsObject',
  description: 'Fails by rejecting with a plain object.',
  effect: 'read',
  input: anyObject,
  output: anyObject,
  execute: () => Promise.reject({ status: 503, reason: 'maintenance' }),
  examples: [{ input: {} }],
});

/** Waits an hour on a timer and ignores its signal: the check must time out and still exit. */
export const neverSettles = defineTool({
  name: 'neverSettles',
  description: 'Never answers in time.',
  effect: 'read',
  input: anyObject,
  output: anyObject,
  execute: () => new Promise<Record<string, never>>((resolve) => setTimeout(() => resolve({}), 3_600_000)),
  examples: [{ name: 'hangs', input: {} }],
});

/** Its example sends arguments its own schema rejects. */
export const badExampleInput = defineTool({
  name: 'badExampleInput',
  description: 'Looks up a record by id.',
  effect: 'read',
  input: idInput,
  output: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  execute: ({ id }: { id: string }) => ({ id }),
  examples: [{ name: 'numeric id', input: { id: 42 } as unknown as { id: string } }],
});

/** Keeps the schema but not the expected output. */
export const wrongOutput = defineTool({
  name: 'wrongOutput',
  description: 'Returns the total of an order in cents.',
  effect: 'read',
  input: idInput,
  output: { type: 'object', properties: { totalCents: { type: 'integer' } }, required: ['totalCents'] },
  execute: () => ({ totalCents: 1250 }),
  examples: [{ name: 'order 42', input: { id: '42' }, output: { totalCents: 1200 } }],
});

let calls = 0;
/** Its formatter gives a different text for the same value each time. */
export const driftingFormat = defineTool({
  name: 'driftingFormat',
  description: 'Returns a greeting.',
  effect: 'read',
  input: anyObject,
  output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: () => ({ text: 'hello' }),
  formatResult: (value) => `${value.text} (${++calls})`,
  examples: [{ input: {} }],
});

/** Its example succeeds, but leaves a rejected promise nobody awaits. */
export const leavesRejection = defineTool({
  name: 'leavesRejection',
  description: 'Returns at once and fails later, in the background.',
  effect: 'read',
  input: anyObject,
  output: anyObject,
  execute: () => {
    void Promise.reject(new Error('background sync failed'));
    return {};
  },
  examples: [{ input: {} }],
});
