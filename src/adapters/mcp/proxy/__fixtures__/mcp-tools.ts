import type { ProxiedTool, ProxyCallToolResult } from '../mcp-shapes.js';

/** Tools as the reference servers list them (annotations and output schemas as measured, trimmed). */
export const SEQUENTIAL_THINKING: ProxiedTool & { inputSchema: object; description: string } = {
  name: 'sequentialthinking',
  description: 'A detailed tool for dynamic and reflective problem-solving through thoughts.',
  inputSchema: { type: 'object', properties: { thought: { type: 'string' } }, required: ['thought'] },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  outputSchema: {
    type: 'object',
    properties: { thoughtNumber: { type: 'number' }, thoughtHistoryLength: { type: 'number' } },
  },
};

export const WRITE_FILE: ProxiedTool = {
  name: 'write_file',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

export const READ_FILE: ProxiedTool = {
  name: 'read_text_file',
  annotations: { readOnlyHint: true },
  outputSchema: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
};

/** No annotations at all (server-everything's `echo`). */
export const ECHO: ProxiedTool = { name: 'echo' };

export const CREATE_ENTITIES: ProxiedTool = {
  name: 'create_entities',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
};

/**
 * What server-sequential-thinking answers a thought: the thought's numbers and the length of its history,
 * which grows with every call (so the same thought twice is not the same result, byte for byte).
 */
export function thoughtResult(thoughtNumber: number, historyLength: number): ProxyCallToolResult {
  const structured = {
    thoughtNumber,
    totalThoughts: 12,
    nextThoughtNeeded: thoughtNumber < 12,
    branches: [],
    thoughtHistoryLength: historyLength,
  };
  return {
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
  };
}

export function textResult(text: string, isError = false): ProxyCallToolResult {
  return isError
    ? { content: [{ type: 'text', text }], isError: true }
    : { content: [{ type: 'text', text }] };
}
