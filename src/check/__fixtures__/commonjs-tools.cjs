// CommonJS: the module's exports object becomes the default export.
module.exports = {
  ping: {
    name: 'ping',
    description: 'Answers pong.',
    effect: 'read',
    input: { type: 'object', properties: {}, required: [], additionalProperties: false },
    output: { type: 'string', enum: ['pong'] },
    execute: () => 'pong',
    examples: [{ input: {}, output: 'pong' }],
  },
};
