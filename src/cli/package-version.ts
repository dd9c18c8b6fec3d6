import { readFile } from 'node:fs/promises';

/**
 * The version in toolwarden's own package.json, two folders up from this module both in `src/cli/` and in
 * the built `dist/cli/` (the package ships package.json beside `dist/`).
 */
export async function packageVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  const { version } = JSON.parse(text) as { version?: unknown };
  if (typeof version !== 'string') throw new TypeError('package.json has no version');
  return version;
}
