import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ROOT, type TypeScriptBlock, typeScriptBlocks } from './markdown-blocks.js';

/** The first TypeScript block under the README's `## Quickstart` heading. */
function quickstartBlock(): TypeScriptBlock {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = text.split('\n');
  const start = lines.indexOf('## Quickstart') + 1;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const block = typeScriptBlocks('README.md', text).find((found) => found.line > start && found.line < end);
  if (start === 0 || block === undefined)
    throw new Error('README.md has no TypeScript block under ## Quickstart');
  return block;
}

/** The object literal a comment of the block shows after `prefix`, read as a value. */
function shownAfter(code: string, prefix: string): unknown {
  const line = code.split('\n').find((candidate) => candidate.startsWith(prefix));
  if (line === undefined) throw new Error(`the quickstart has no comment starting ${JSON.stringify(prefix)}`);
  return new Function(`return (${line.slice(prefix.length)});`)();
}

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('the README quickstart', () => {
  it('runs as written and gives what its comments show', async () => {
    const { code } = quickstartBlock();
    // As written, with `toolwarden` being the package's source and its results exported for the checks.
    const source = `${code.replaceAll("from 'toolwarden'", `from ${JSON.stringify(join(ROOT, 'src/index.ts'))}`)}
export { answer, history, results };
`;
    const folder = await mkdtemp(join(tmpdir(), 'toolwarden-quickstart-'));
    folders.push(folder);
    const file = join(folder, 'quickstart.ts');
    await writeFile(file, source);
    const printed: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    let ran: { answer: unknown; history: unknown[]; results: unknown[] };
    try {
      ran = await import(pathToFileURL(file).href);
    } finally {
      log.mockRestore();
    }
    expect(printed).toEqual([['tool-call-start'], ['tool-call-end']]);
    expect(ran.history.at(-1)).toEqual(shownAfter(code, '// history ends with the tool message: '));
    expect(ran.results).toHaveLength(1);
    expect(ran.answer).toMatchObject({
      type: 'answered',
      isError: false,
      content: '{"celsius":21,"city":"Rome"}',
      value: { city: 'Rome', celsius: 21 },
    });
  }, 60_000); // imports the source through tsx: seconds on a loaded machine
});
