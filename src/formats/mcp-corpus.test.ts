import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { fromAnthropicTools } from './from-anthropic-tool.js';
import { fromMcpTools } from './from-mcp-tool.js';
import { fromOpenAiTools } from './from-openai-tool.js';
import type { McpTool } from './mcp-tool.js';
import { toAnthropicTool } from './to-anthropic-tool.js';
import { toMcpTool } from './to-mcp-tool.js';
import { toOpenAiTool } from './to-openai-tool.js';

/** Real `tools/list` output of the MCP reference servers: see ../shared/corpus/mcp/README.md. */
const corpus = fileURLToPath(new URL('../../../shared/corpus/mcp/', import.meta.url));
if (!existsSync(corpus)) {
  throw new Error(
    `The MCP corpus is missing: expected ${corpus} (../shared/corpus/mcp next to the repository).`,
  );
}
const readJson = (file: string): unknown => JSON.parse(readFileSync(`${corpus}${file}`, 'utf8'));

type Recorded = McpTool & { readonly execution?: unknown };
const everything = (readJson('server-everything-2026.8.31.tools-list.json') as { tools: Recorded[] }).tools;

interface ProbeTool {
  name: string;
  inputSchemaKeys: string[];
  required?: string[];
  outputSchema?: McpTool['outputSchema'];
  annotations?: McpTool['annotations'];
}
interface ProbeCall {
  name: string;
  args: Record<string, unknown>;
  result: { structuredContent?: unknown; isError?: boolean };
}
type Probe = Record<'filesystem' | 'memory', { tools: ProbeTool[]; calls: ProbeCall[] }>;
const probe = readJson('server-filesystem-and-memory-2026.8.31.probe.json') as Probe;

/** The probe kept input keys, not input schemas: each key becomes a property of any type. */
function fromProbe(tool: ProbeTool): McpTool {
  return {
    name: tool.name,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(tool.inputSchemaKeys.map((key) => [key, {}])),
      ...(tool.required === undefined ? {} : { required: tool.required }),
    },
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}
const probed = [...probe.filesystem.tools, ...probe.memory.tools].map(fromProbe);
const allRecorded: readonly McpTool[] = [...everything, ...probed];

const READ_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'trigger-long-running-operation',
  'read_file',
  'read_text_file',
  'read_media_file',
  'read_multiple_files',
  'list_directory',
  'list_directory_with_sizes',
  'directory_tree',
  'search_files',
  'get_file_info',
  'list_allowed_directories',
  'read_graph',
  'search_nodes',
  'open_nodes',
];

describe('MCP reference servers: import, effects, round trips', () => {
  const noop = () => undefined;
  const imported = fromMcpTools(allRecorded, { handler: noop });

  it('imports every tool of both recordings', () => {
    expect(everything).toHaveLength(13);
    expect(probed).toHaveLength(23);
    expect(imported.tools.map((tool) => tool.name)).toEqual(allRecorded.map((tool) => tool.name));
  });

  it('makes read tools of the tools marked readOnlyHint, idempotent writes of idempotentHint, writes of the rest', () => {
    const byEffect = (effect: string) =>
      imported.tools.filter((tool) => tool.effect === effect).map((tool) => tool.name);
    expect(byEffect('read')).toEqual(READ_TOOLS);
    expect(byEffect('write')).toEqual([
      'toggle-simulated-logging',
      'toggle-subscriber-updates',
      'simulate-research-query',
      'edit_file',
      'move_file',
      'create_entities',
      'create_relations',
      'add_observations',
    ]);
    // server-filesystem marks write_file idempotent: writing the same content twice does no more than once.
    expect(byEffect('idempotent-write')).toEqual([
      'gzip-file-as-resource',
      'write_file',
      'create_directory',
      'delete_entities',
      'delete_observations',
      'delete_relations',
    ]);
    // Every recorded tool carries hints: none is of unknown effect.
    expect(byEffect('unknown')).toEqual([]);
  });

  it('turns outputSchema into the output contract', () => {
    const withOutput = imported.tools.filter((tool) => tool.validateOutput !== undefined);
    expect(withOutput.map((tool) => tool.name)).toEqual([
      'get-structured-content',
      ...probed.map((tool) => tool.name),
    ]);
    allRecorded.forEach((recorded, index) => {
      expect(imported.tools[index]?.outputJsonSchema).toBe(recorded.outputSchema);
    });
  });

  it('exports back to the same MCP definitions (given back what a tool does not carry)', () => {
    allRecorded.forEach((recorded, index) => {
      const tool = imported.tools[index];
      if (tool === undefined) throw new Error('missing tool');
      const { execution: _, ...expected } = recorded as Recorded;
      const exported = toMcpTool(tool, {
        nameMap: imported.nameMap,
        ...(recorded.title === undefined ? {} : { title: recorded.title }),
        ...(recorded.annotations === undefined ? {} : { annotations: recorded.annotations }),
      });
      // The probe kept no descriptions: the name stands in for one.
      expect(exported).toEqual({ ...expected, description: recorded.description ?? recorded.name });
      const { readOnlyHint, idempotentHint } = toMcpTool(tool).annotations ?? {};
      expect(readOnlyHint).toBe(tool.effect === 'read');
      expect(idempotentHint).toBe(tool.effect === 'idempotent-write' ? true : undefined);
    });
  });

  it('round-trips through the OpenAI and Anthropic formats and back to MCP', () => {
    const openAi = imported.tools.map((tool) => toOpenAiTool(tool));
    const viaOpenAi = fromOpenAiTools(openAi, {
      handler: noop,
      effect: (name) => imported.tools.find((tool) => tool.name === name)?.effect,
    });
    const anthropic = viaOpenAi.tools.map((tool) => toAnthropicTool(tool));
    const viaAnthropic = fromAnthropicTools(anthropic, {
      handler: noop,
      effect: (name) => imported.tools.find((tool) => tool.name === name)?.effect,
    });
    expect(anthropic).toEqual(
      imported.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputJsonSchema,
      })),
    );
    viaAnthropic.tools.forEach((tool, index) => {
      const original = imported.tools[index];
      expect(tool.name).toBe(original?.name);
      expect(tool.effect).toBe(original?.effect);
      expect(toMcpTool(tool, { nameMap: imported.nameMap })).toEqual({
        ...toMcpTool(original as never, { nameMap: imported.nameMap }),
        outputSchema: undefined,
      });
    });
  });
});

describe('MCP reference servers: recorded calls replayed through the chain', () => {
  interface Frame {
    dir: string;
    msg: {
      id?: number;
      method?: string;
      params?: { name: string; arguments?: unknown };
      result?: RecordedResult;
    };
  }
  interface RecordedResult {
    content: { type: string; text?: string }[];
    structuredContent?: unknown;
    isError?: boolean;
  }
  const frames = readFileSync(`${corpus}server-everything-2026.8.31.sdk-session.jsonl`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Frame);
  const calls = frames
    .filter((frame) => frame.msg.method === 'tools/call')
    .map((frame) => ({
      params: frame.msg.params as { name: string; arguments?: unknown },
      result: frames.find((reply) => reply.dir === 'server->client' && reply.msg.id === frame.msg.id)?.msg
        .result as RecordedResult,
    }));

  it('agrees with the server on every recorded call: same accepted calls, same argument paths refused', async () => {
    expect(calls).toHaveLength(15);
    const ran: string[] = [];
    const { tools } = fromMcpTools(everything, {
      handler: (name, args) => {
        ran.push(name);
        const recorded = calls.find(
          (call) =>
            call.params.name === name && JSON.stringify(call.params.arguments) === JSON.stringify(args),
        );
        return recorded?.result.structuredContent ?? recorded?.result.content;
      },
    });
    for (const { params, result } of calls) {
      const { messages } = await createToolRuntime({ tools }).executeToolCalls({
        messages: [],
        response: assistantWithCalls([{ name: params.name, arguments: params.arguments }]),
      });
      const message = messages.at(-1);
      if (message?.role !== 'tool') throw new Error('no tool message');
      const serverText = result.content[0]?.text ?? '';
      if (result.isError !== true) {
        expect(message.isError, message.content).toBe(false);
        continue;
      }
      if (serverText.includes('not found')) {
        expect(message.errorCode).toBe('UNKNOWN_TOOL');
        continue;
      }
      expect(message.errorCode).toBe('INVALID_ARGUMENTS');
      for (const [, path] of serverText.matchAll(/ at (\w+)/g))
        expect(message.content).toContain(`/${path}:`);
    }
    expect(ran).toEqual([
      'get-sum',
      'get-sum',
      'echo',
      'get-structured-content',
      'get-annotated-message',
      'get-resource-links',
      'get-tiny-image',
      'get-sum',
    ]);
  });

  it('accepts every recorded structuredContent of the filesystem and memory servers under their output contracts', async () => {
    const recordedCalls = [...probe.filesystem.calls, ...probe.memory.calls].filter(
      (call) => call.result.structuredContent !== undefined,
    );
    expect(recordedCalls).toHaveLength(4);
    for (const call of recordedCalls) {
      const { tools } = fromMcpTools(probed, { handler: () => call.result.structuredContent });
      const { results } = await createToolRuntime({ tools }).executeToolCalls({
        messages: [],
        response: assistantWithCalls([{ name: call.name, arguments: call.args }]),
      });
      expect(results[0]?.type, call.name).toBe('success');
    }
    const { tools } = fromMcpTools(probed, { handler: () => ({ content: 42 }) });
    const { results } = await createToolRuntime({ tools }).executeToolCalls({
      messages: [],
      response: assistantWithCalls([{ name: 'read_text_file', arguments: { path: '/a' } }]),
    });
    expect(results[0]).toMatchObject({ type: 'error', code: 'CONTRACT_VIOLATION' });
  });
});
