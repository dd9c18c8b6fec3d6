import { describe, expect, it } from 'vitest';
import type { Model, ToolSpec } from '../core/model.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { defineTool } from '../tools/define-tool.js';
import { toAnthropicTool } from './to-anthropic-tool.js';
import { toMcpTool } from './to-mcp-tool.js';
import { toOpenAiTool } from './to-openai-tool.js';
import { ToolFormatError } from './tool-format-error.js';

const weather = defineTool({
  name: 'getWeather',
  description: 'The weather in a city.',
  effect: 'read',
  input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }: { city: string }) => `sunny in ${city}`,
});

/** The specs a model adapter is given, as it is given them. */
async function specsOfARun(): Promise<readonly ToolSpec[]> {
  let seen: readonly ToolSpec[] = [];
  const model: Model = {
    async generate(request) {
      seen = request.tools;
      return { message: { role: 'assistant', content: 'done' } };
    },
  };
  await runToolLoop({ model, tools: [weather], messages: [{ role: 'user', content: 'weather?' }] });
  return seen;
}

describe('exporting the ToolSpec a model receives', () => {
  it('gives a model adapter the provider formats of request.tools, as for the tools themselves', async () => {
    const [spec] = await specsOfARun();
    if (spec === undefined) throw new Error('the model got no tool');
    expect(toOpenAiTool(spec)).toEqual(toOpenAiTool(weather));
    expect(toOpenAiTool(spec, { strict: true })).toEqual(toOpenAiTool(weather, { strict: true }));
    expect(toAnthropicTool(spec)).toEqual(toAnthropicTool(weather));
    // A spec does not say whether its tool reads or writes: no readOnlyHint but the one given.
    expect(toMcpTool(spec)).toEqual({ ...toMcpTool(weather), annotations: {} });
    expect(toMcpTool(spec, { annotations: { readOnlyHint: true } }).annotations).toEqual({
      readOnlyHint: true,
    });
  });

  it.each([
    ['a spec without a JSON Schema', { name: 't', description: 'd', inputSchema: undefined }],
    ['a spec whose schema is a string', { name: 't', description: 'd', inputSchema: 'object' }],
    ['a spec without a description', { name: 't', inputSchema: { type: 'object' } }],
    ['an object with a made-up effect', { name: 't', description: 'd', effect: 'maybe', inputSchema: {} }],
    ['null', null],
  ])('refuses %s with a ToolFormatError', (_, value) => {
    for (const convert of [toOpenAiTool, toAnthropicTool, toMcpTool] as const) {
      expect(() => convert(value as never)).toThrow(ToolFormatError);
    }
  });
});
