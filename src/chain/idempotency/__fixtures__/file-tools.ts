import { defineTool, type Tool } from '../../../tools/define-tool.js';

/** Files in memory, and every write made to them (the side effects a test counts). */
export interface Disk {
  readonly files: Map<string, string>;
  readonly writes: string[];
}

/**
 * `write_file` and `move_file` as server-filesystem has them, on a disk in memory: two write tools of one
 * scope (deduplicated by the default key, the canonical arguments).
 */
export function fileTools(): {
  readonly writeFile: Tool<{ path: string; content: string }, string>;
  readonly moveFile: Tool<{ source: string; destination: string }, string>;
  readonly disk: Disk;
} {
  const disk: Disk = { files: new Map(), writes: [] };
  const writeFile = defineTool<{ path: string; content: string }, string>({
    name: 'write_file',
    description: 'Writes a file.',
    effect: 'write',
    input: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
    execute: ({ path, content }) => {
      disk.files.set(path, content);
      disk.writes.push(`${path}=${content}`);
      return `Successfully wrote to ${path}`;
    },
  });
  const moveFile = defineTool<{ source: string; destination: string }, string>({
    name: 'move_file',
    description: 'Moves a file.',
    effect: 'write',
    input: {
      type: 'object',
      properties: { source: { type: 'string' }, destination: { type: 'string' } },
      required: ['source', 'destination'],
    },
    execute: ({ source, destination }) => {
      disk.files.set(destination, disk.files.get(source) ?? '');
      disk.files.delete(source);
      disk.writes.push(`${source}->${destination}`);
      return `Successfully moved ${source} to ${destination}`;
    },
  });
  return { writeFile, moveFile, disk };
}
