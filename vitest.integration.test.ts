import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INTEGRATION } from './vitest.integration.js';

const root = dirname(fileURLToPath(import.meta.url));

/** What a test file (or a fixture it imports) does that belongs in the integration suite. */
const STARTS: readonly (readonly [RegExp, string])[] = [
  [/node:child_process|from 'execa'/, 'starts a process'],
  [/StdioClientTransport|createMcpProxy\(|runCheckInChild/, 'starts a process (an MCP server or a check)'],
  [/\bcreateServer\(|\.listen\(|StreamableHTTPServerTransport/, 'starts a server'],
  [/redis-server|from 'redis'/, 'talks to Redis'],
  [/from 'pg'/, 'talks to PostgreSQL'],
  [/playwright|chromium/i, 'starts a browser'],
];

/**
 * Files that match but stay in the fast suite, each with the reason. Keep this short: a file here is
 * trusted to stay fast.
 */
const FAST_ANYWAY: Readonly<Record<string, string>> = {
  'src/cli/read-bounded-file.test.ts': 'runs `mkfifo` once to make a FIFO: milliseconds, no service',
  'vitest.integration.test.ts': 'names the patterns it looks for',
};

function testFiles(): string[] {
  const found = readdirSync(root).filter((name) => name.endsWith('.test.ts'));
  for (const folder of ['src', 'test', 'examples', 'fuzz']) {
    for (const entry of readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })) {
      if (entry.endsWith('.test.ts')) found.push(join(folder, entry));
    }
  }
  return found.sort();
}

/** A file's text and that of the `__fixtures__` modules it imports, followed through fixtures. */
function textWithFixtures(path: string, seen = new Set<string>()): string {
  if (seen.has(path)) return '';
  seen.add(path);
  const text = readFileSync(join(root, path), 'utf8');
  const fixtures = [...text.matchAll(/from '(\.[^']+)\.js'/g)]
    .map((match) => relative(root, join(root, dirname(path), `${match[1]}.ts`)))
    .filter((imported) => imported.includes('__fixtures__/'));
  return [text, ...fixtures.map((fixture) => textWithFixtures(fixture, seen))].join('\n');
}

describe('the integration suite (vitest.integration.ts)', () => {
  it('lists every test file that starts a process, a server or a browser, or talks to Redis or PostgreSQL', () => {
    const listed = new Set(INTEGRATION);
    const unlisted = testFiles().flatMap((file) => {
      if (listed.has(file) || file in FAST_ANYWAY) return [];
      const text = textWithFixtures(file);
      const reasons = new Set(STARTS.filter(([pattern]) => pattern.test(text)).map(([, reason]) => reason));
      return reasons.size === 0 ? [] : [`${file}: ${[...reasons].join(', ')}`];
    });
    expect(unlisted, 'add these to vitest.integration.ts (or make them not start anything)').toEqual([]);
  });

  it('lists only test files that exist', () => {
    const files = new Set(testFiles());
    expect(INTEGRATION.filter((file) => !files.has(file))).toEqual([]);
  });
});
