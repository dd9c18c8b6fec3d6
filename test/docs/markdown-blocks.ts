import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root (test/docs/ is two folders below it). */
export const ROOT = join(import.meta.dirname, '..', '..');

/** One fenced TypeScript block of a Markdown file. */
export interface TypeScriptBlock {
  /** The Markdown file, relative to the repository root (`docs/mcp.md`). */
  readonly file: string;
  /** The 1-based line of the block's first code line in the Markdown file. */
  readonly line: number;
  readonly code: string;
  /** Why the block is not compiled, from a `<!-- ts-check: skip <reason> -->` comment above its fence. */
  readonly skip?: string;
}

const FENCE = /^```(ts|typescript)\s*$/;
const SKIP = /^<!--\s*ts-check:\s*skip\s+(.+?)\s*-->\s*$/;

/** The user docs whose TypeScript blocks are checked: README.md and every page of docs/. */
export function documentationFiles(): string[] {
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages];
}

/**
 * Every ```ts / ```typescript block of a Markdown text, in order. A block is skipped only when the last
 * non-blank line above its fence is `<!-- ts-check: skip <reason> -->`.
 */
export function typeScriptBlocks(file: string, text: string): TypeScriptBlock[] {
  const lines = text.split('\n');
  const blocks: TypeScriptBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!FENCE.test(lines[index] ?? '')) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    if (end === -1) throw new Error(`${file}:${index + 1}: a TypeScript block that is never closed`);
    let above = index - 1;
    while (above >= 0 && (lines[above] ?? '').trim() === '') above--;
    const skip = SKIP.exec(lines[above] ?? '')?.[1];
    const code = lines.slice(index + 1, end).join('\n');
    blocks.push({ file, line: index + 2, code, ...(skip === undefined ? {} : { skip }) });
    index = end;
  }
  return blocks;
}

/** The TypeScript blocks of every documentation file. */
export function documentationBlocks(): TypeScriptBlock[] {
  return documentationFiles().flatMap((file) =>
    typeScriptBlocks(file, readFileSync(join(ROOT, file), 'utf8')),
  );
}
