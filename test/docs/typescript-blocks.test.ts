import { beforeAll, describe, expect, it } from 'vitest';
import { checkBlocks, entryPaths } from './check-blocks.js';
import { documentationBlocks, type TypeScriptBlock, typeScriptBlocks } from './markdown-blocks.js';

/**
 * How many blocks may be skipped (`<!-- ts-check: skip <reason> -->`). Keep it near zero: a fragment is
 * made complete (its imports and the names it assumes shown) rather than skipped.
 */
const MAX_SKIPPED = 0;

const blocks = documentationBlocks();

/** A block that must fail, compiled in the same program: it shows what a failure names. */
const BROKEN: TypeScriptBlock = {
  file: 'docs/broken.md',
  line: 10,
  code: "import { defineTool } from 'toolwarden';\nconst n: number = defineTool;",
};

describe('the TypeScript blocks of README.md and docs/', () => {
  let problems: string[];
  beforeAll(() => {
    // One program for every block (compiling the source once): each block is a module of its own.
    problems = checkBlocks([...blocks.filter((block) => block.skip === undefined), BROKEN]);
  }, 120_000);

  it('compile against the package source, toolwarden and toolwarden/* mapped to src/', () => {
    const found = problems.filter((problem) => !problem.startsWith(`${BROKEN.file}:`));
    expect(found, `fix these blocks (file:line:column in the Markdown file):\n${found.join('\n')}`).toEqual(
      [],
    );
  });

  it("name the Markdown file, the line and column in it, and the compiler's error", () => {
    const broken = problems.filter((problem) => problem.startsWith(`${BROKEN.file}:`));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(/^docs\/broken\.md:11:7 TS2322 Type '.*' is not assignable to type 'number'/);
  });

  it(`are skipped only with a reason, and at most ${MAX_SKIPPED}`, () => {
    const skipped = blocks.filter((block) => block.skip !== undefined);
    const listed = skipped.map((block) => `${block.file}:${block.line} ${block.skip}`).join('\n');
    expect(skipped.length, listed).toBeLessThanOrEqual(MAX_SKIPPED);
    expect(blocks.length).toBeGreaterThan(10);
  });
});

describe('typeScriptBlocks', () => {
  it('finds ts and typescript fences with their first code line, and the skip comment above a fence', () => {
    const text = [
      '# A page',
      '```ts',
      'const a = 1;',
      '```',
      '<!-- ts-check: skip a config sketch -->',
      '',
      '```typescript',
      'b;',
      '```',
      '```sh',
      'npm test',
      '```',
    ].join('\n');
    expect(typeScriptBlocks('page.md', text)).toEqual([
      { file: 'page.md', line: 3, code: 'const a = 1;' },
      { file: 'page.md', line: 8, code: 'b;', skip: 'a config sketch' },
    ]);
  });
});

describe('entryPaths', () => {
  it('maps every entry of package.json to its source', () => {
    expect(entryPaths()).toMatchObject({
      toolwarden: ['./src/index.ts'],
      'toolwarden/mcp': ['./src/adapters/mcp/index.ts'],
      'toolwarden/otel': ['./src/telemetry/index.ts'],
    });
  });
});
