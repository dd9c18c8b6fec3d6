import { describe, expect, it } from 'vitest';
import type { AnthropicTool } from './anthropic-tool.js';
import { fromAnthropicTool, fromAnthropicTools } from './from-anthropic-tool.js';
import { toAnthropicTool } from './to-anthropic-tool.js';
import { toOpenAiTool } from './to-openai-tool.js';

const search: AnthropicTool = {
  name: 'search_docs',
  description: 'Searches the documentation.',
  input_schema: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
    required: ['query'],
  },
};

describe('fromAnthropicTool / toAnthropicTool', () => {
  it('round-trips a definition exactly, and converts it to the OpenAI format', () => {
    const tool = fromAnthropicTool(search, { execute: () => [], effect: 'read' });
    expect(toAnthropicTool(tool)).toEqual(search);
    expect(toOpenAiTool(tool)).toEqual({
      type: 'function',
      function: { name: 'search_docs', description: search.description, parameters: search.input_schema },
    });
    expect(tool.validateInput({ limit: 0 })).toMatchObject({ ok: false });
  });

  it('maps an illegal name and exports the mapped name', () => {
    const { tools, nameMap } = fromAnthropicTools([{ ...search, name: 'docs.search' }], {
      handler: () => [],
    });
    expect(nameMap.toProvider('docs.search')).toBe('docs_search');
    expect(toAnthropicTool(tools[0] as never).name).toBe('docs_search');
  });

  it.each([
    ['a server tool', { type: 'web_search_20250305', name: 'web_search' }, /only client tools/],
    ['no input_schema', { name: 'x' }, /\(input_schema\): input_schema is required/],
    [
      'a non-object input_schema',
      { name: 'x', input_schema: 'object' },
      /must be a JSON Schema object, got a string/,
    ],
    [
      'an input_schema of another type',
      { name: 'x', input_schema: { type: 'array' } },
      /must describe an object/,
    ],
  ])('refuses %s', (_label, definition, message) => {
    expect(() => fromAnthropicTool(definition, { execute: () => 1 })).toThrow(message);
  });
});
