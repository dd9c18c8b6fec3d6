// Plain JavaScript, no imports: tool definitions the checker defines itself.
export const echo = {
  name: 'echo',
  description: 'Returns the text in upper case.',
  effect: 'read',
  input: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  output: { type: 'string' },
  execute: ({ text }) => text.toUpperCase(),
  examples: [{ input: { text: 'spring ai' }, output: 'SPRING AI' }],
};

export const badEffect = {
  name: 'badEffect',
  description: 'Declares an effect that does not exist.',
  effect: 'delete',
  output: { type: 'object' },
  execute: () => ({}),
  examples: [{ input: {} }],
};
