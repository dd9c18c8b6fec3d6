import { describe, expect, it } from 'vitest';
import { fromMcpTool } from './from-mcp-tool.js';
import { toMcpTool } from './to-mcp-tool.js';

const inputSchema = { type: 'object', properties: {} };

/** What `toMcpTool` says of each effect: an unknown effect claims nothing. */
const HINTS_OF: Record<string, object> = {
  read: { readOnlyHint: true },
  write: { readOnlyHint: false },
  'idempotent-write': { readOnlyHint: false, idempotentHint: true },
  unknown: {},
};

describe('fromMcpTool / toMcpTool', () => {
  it.each([
    [{ readOnlyHint: true }, 'read'],
    [{ readOnlyHint: true, destructiveHint: true }, 'read'],
    [{ readOnlyHint: false }, 'write'],
    [{ destructiveHint: true }, 'write'],
    [{ destructiveHint: false, idempotentHint: true }, 'idempotent-write'],
    [{ openWorldHint: true }, 'unknown'],
    [{}, 'unknown'],
    [undefined, 'unknown'],
  ])('annotations %j make a %s tool', (annotations, effect) => {
    const tool = fromMcpTool(
      { name: 't', inputSchema, ...(annotations === undefined ? {} : { annotations }) },
      { execute: () => 1 },
    );
    expect(tool.effect).toBe(effect);
    expect(toMcpTool(tool).annotations).toEqual(HINTS_OF[effect]);
  });

  it('lets the caller override the effect', () => {
    expect(fromMcpTool({ name: 't', inputSchema }, { execute: () => 1, effect: 'read' }).effect).toBe('read');
  });

  it('uses the title, then the annotation title, then the name when there is no description', () => {
    const describe = (definition: object) =>
      fromMcpTool({ name: 'n', inputSchema, ...definition }, { execute: () => 1 }).description;
    expect(describe({ title: 'T', annotations: { title: 'A' } })).toBe('T');
    expect(describe({ annotations: { title: 'A' } })).toBe('A');
    expect(describe({ description: '  ' })).toBe('n');
  });

  it('gives a mapped tool its original name back and keeps readOnlyHint true to the effect', () => {
    const tool = fromMcpTool(
      { name: 'files.read', inputSchema, annotations: { readOnlyHint: true } },
      { execute: () => 1 },
    );
    expect(tool.name).toBe('files_read');
    expect(toMcpTool(tool).name).toBe('files_read');
    expect(
      toMcpTool(tool, { annotations: { readOnlyHint: false, openWorldHint: true } }).annotations,
    ).toEqual({
      readOnlyHint: true,
      openWorldHint: true,
    });
  });
});
