import { defineTool } from '../../../tools/define-tool.js';

/** Returns at once; a moment later a promise it made rejects and nobody handles it. */
export const failsLater = defineTool({
  name: 'failsLater',
  description: 'Returns at once and fails in the background a moment later.',
  effect: 'read',
  input: { type: 'object', additionalProperties: false },
  output: { type: 'object' },
  execute: () => {
    setTimeout(() => {
      void Promise.reject(new Error('late background failure'));
    }, 10);
    return {};
  },
  examples: [{ name: 'returns at once', input: {} }],
});
