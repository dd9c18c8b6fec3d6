import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { fromOpenAiTool, fromOpenAiTools } from './from-openai-tool.js';
import type { OpenAiTool } from './openai-tool.js';
import { toOpenAiTool } from './to-openai-tool.js';
import { ToolFormatError } from './tool-format-error.js';

const weather: OpenAiTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    strict: false,
  },
};

describe('fromOpenAiTool / toOpenAiTool', () => {
  it('round-trips a definition exactly', () => {
    const tool = fromOpenAiTool(weather, { execute: () => 'sunny' });
    expect(tool.effect).toBe('unknown');
    expect(toOpenAiTool(tool, { strict: false })).toEqual(weather);
    const { strict: _, ...withoutStrict } = weather.function;
    expect(toOpenAiTool(tool)).toEqual({ type: 'function', function: withoutStrict });
  });

  it('fills what OpenAI makes optional: parameters and description', () => {
    const tool = fromOpenAiTool(
      { type: 'function', function: { name: 'ping' } },
      { execute: () => 'pong', effect: 'read' },
    );
    expect(tool).toMatchObject({ name: 'ping', description: 'ping', effect: 'read' });
    expect(tool.inputJsonSchema).toEqual({ type: 'object', properties: {} });
  });

  it('registers illegal names under their mapped names, and a call to the mapped name reaches the right tool', async () => {
    const definitions = [
      'math.sqrt',
      'math_sqrt',
      'math sqrt',
      `${'n'.repeat(70)}.a`,
      `${'n'.repeat(70)}.b`,
    ].map(
      (name): OpenAiTool => ({
        type: 'function',
        function: { name, description: `Tool ${name}.`, parameters: { type: 'object', properties: {} } },
      }),
    );
    const calls: string[] = [];
    const { tools, nameMap } = fromOpenAiTools(definitions, {
      handler: (originalName, _args, context) => {
        calls.push(`${originalName} as ${context.toolName}`);
        return originalName;
      },
    });
    expect(tools.map((tool) => tool.name)).toEqual(
      definitions.map((d) => nameMap.toProvider(d.function.name)),
    );
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(5);
    for (const tool of tools) expect(toOpenAiTool(tool).function.name).toBe(tool.name);

    const originals = definitions.map((d) => d.function.name);
    const { messages } = await createToolRuntime({ tools }).executeToolCalls({
      messages: [],
      response: assistantWithCalls(originals.map((name) => ({ name: nameMap.toProvider(name) as string }))),
    });
    expect(calls).toEqual(originals.map((name) => `${name} as ${nameMap.toProvider(name)}`));
    expect(messages.slice(1).map((m) => m.content)).toEqual(originals.map((name) => JSON.stringify(name)));
  });

  it('refuses two definitions with the same name', () => {
    expect(() => fromOpenAiTools([weather, weather], { handler: () => 1 })).toThrow(
      /OpenAI tool "get_weather" \(name\): two tools have this name/,
    );
  });

  it('names the position of a bad definition in a list', () => {
    const error = (() => {
      try {
        fromOpenAiTools([weather, { type: 'function', function: { description: 'x' } }], {
          handler: () => 1,
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ToolFormatError);
    expect(error).toMatchObject({ path: '[1].function.name', code: 'TOOL_FORMAT_INVALID' });
  });

  it('reports a schema that does not compile as a format error that keeps the cause', () => {
    const bad = {
      type: 'function',
      function: { name: 'x', parameters: { type: 'object', properties: { a: { type: 'strin' } } } },
    };
    expect(() => fromOpenAiTool(bad, { execute: () => 1 })).toThrow(
      /OpenAI tool "x": its input schema does not compile/,
    );
  });
});
