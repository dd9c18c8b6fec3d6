import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const root = new URL('../', import.meta.url);
const config = require('../.dependency-cruiser.cjs') as {
  forbidden: unknown[];
  options: Record<string, unknown>;
};
const { FLOORS, UPWARD } = require('../scripts/floors.cjs') as {
  FLOORS: string[];
  UPWARD: { from: string; to: string; why: string }[];
};

async function violations(): Promise<string[]> {
  const { tsConfig: _file, ...options } = config.options;
  const { output } = await cruise(
    ['src'],
    { ...options, ruleSet: { forbidden: config.forbidden }, validate: true } as never,
    { extensions: ['.ts', '.js'] },
    { tsConfig: extractTSConfig(new URL('tsconfig.json', root).pathname) },
  );
  const result = (typeof output === 'string' ? JSON.parse(output) : output) as ICruiseResult;
  return result.summary.violations.map((v) =>
    v.cycle
      ? `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}`
      : `${v.rule.name}: ${v.from} → ${v.to}`,
  );
}

describe('the floors of src/', () => {
  it('have no import cycle and no import up a floor but those UPWARD gives a reason for', {
    timeout: 60_000,
  }, async () => {
    expect(await violations()).toEqual([]);
  });

  it('are every folder of src/, each drawn in src/README.md in the same order', () => {
    const folders = readdirSync(new URL('src/', root), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')),
      )
      .map((entry) => entry.name);
    expect([...folders].sort()).toEqual([...FLOORS].sort());
    const readme = readFileSync(new URL('src/README.md', root), 'utf8');
    const drawn = [...readme.matchAll(/^### `([^`]+)`/gm)].map((match) => match[1]?.replace(/\/$/, ''));
    expect(drawn).toEqual([...FLOORS].reverse());
  });

  it('allow an upward import only with a reason', () => {
    for (const exception of UPWARD) expect(exception.why.length).toBeGreaterThan(20);
  });
});
