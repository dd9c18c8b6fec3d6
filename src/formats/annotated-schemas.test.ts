import { describe, expect, it, vi } from 'vitest';
import { defaultSchemaCompiler } from '../schema/schema-compiler.js';
import { fromAnthropicTools } from './from-anthropic-tool.js';
import { fromMcpTools } from './from-mcp-tool.js';
import { fromOpenAiTool, fromOpenAiTools } from './from-openai-tool.js';
import { ToolFormatError } from './tool-format-error.js';

/** What OpenAPI exports, FastAPI and MCP servers leave in the schemas they write. */
const annotated = {
  type: 'object',
  'x-openai-isConsequential': false,
  properties: {
    city: { type: 'string', example: 'Paris', 'x-order': 0, deprecated: false },
    days: { type: 'integer', examples: [3], nullable: true, $comment: 'optional' },
  },
  required: ['city'],
};
const misspelled = { type: 'object', properties: { city: { type: 'string', maxLenght: 40 } } };
const handler = () => 'ok';

const importers = [
  [
    'fromOpenAiTools',
    (schema: object) =>
      fromOpenAiTools([{ type: 'function', function: { name: 'weather', parameters: schema } }], { handler }),
  ],
  [
    'fromAnthropicTools',
    (schema: object) => fromAnthropicTools([{ name: 'weather', input_schema: schema }], { handler }),
  ],
  [
    'fromMcpTools',
    (schema: object) =>
      fromMcpTools([{ name: 'weather', inputSchema: schema, outputSchema: { ...schema, 'x-cache': true } }], {
        handler,
      }),
  ],
] as const;

describe('importing schemas people really write', () => {
  it.each(importers)('%s accepts annotations, and the schema is kept as written', (_name, importTools) => {
    const [tool] = importTools(annotated).tools;
    expect(tool?.inputJsonSchema).toBe(annotated);
    expect(tool?.validateInput({ city: 'Paris', days: null })).toMatchObject({ ok: true });
    expect(tool?.validateInput({ days: 3 })).toMatchObject({ ok: false, issues: [{ path: '/city' }] });
  });

  it.each(importers)('%s still refuses a misspelled keyword, naming it', (_name, importTools) => {
    expect(() => importTools(misspelled)).toThrow(ToolFormatError);
    expect(() => importTools(misspelled)).toThrow(/unknown keyword: "maxLenght"/);
  });

  it('compiles with the shared compiler unless given one', () => {
    const compile = vi.spyOn(defaultSchemaCompiler(), 'compile');
    try {
      const definitions = Array.from({ length: 20 }, (_, i) => ({
        type: 'function',
        function: { name: `tool_${i}`, parameters: annotated },
      }));
      fromOpenAiTools(definitions, { handler });
      fromOpenAiTool(definitions[0], { execute: handler });
      expect(compile).toHaveBeenCalledTimes(21);
    } finally {
      compile.mockRestore();
    }
  });
});
