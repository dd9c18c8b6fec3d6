import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolwardenError } from '../errors/toolwarden-error.js';
import { describeThrown } from './preview-value.js';
import { ToolModuleError } from './tool-module-error.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/**
 * Imports a tools module by path (relative to `cwd`): `.js`, `.mjs` and `.cjs` as Node loads them; a
 * TypeScript module needs a TypeScript loader in the process (`node --import tsx`). Throws
 * `ToolModuleError` saying what went wrong; a `ToolDefinitionError` thrown while the module loads is
 * `definition-invalid`, so it can be reported as a failed check.
 */
export async function loadToolModule(modulePath: string, cwd: string): Promise<Record<string, unknown>> {
  const absolute = resolve(cwd, modulePath);
  const fail = (problem: ToolModuleError['problem'], message: string, cause?: unknown): never => {
    throw new ToolModuleError({ modulePath, problem, message, cause });
  };
  const found = await stat(absolute).catch(() => undefined);
  if (found === undefined) return fail('not-found', `no such file: ${absolute}`);
  if (!found.isFile()) return fail('not-a-file', `not a file: ${absolute}`);
  try {
    return (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (error) {
    if (isDefinitionError(error)) return fail('definition-invalid', describeThrown(error), error);
    if (TYPESCRIPT.has(extname(absolute)) && codeOf(error) === 'ERR_UNKNOWN_FILE_EXTENSION') {
      return fail(
        'needs-tsx',
        `${modulePath} is TypeScript: run the check with a TypeScript loader, e.g. NODE_OPTIONS='--import tsx' npx toolwarden check ${modulePath} (or point it at the compiled .js)`,
        error,
      );
    }
    return fail('import-failed', `importing ${modulePath} threw ${describeThrown(error)}`, error);
  }
}

function isDefinitionError(error: unknown): boolean {
  try {
    return ToolwardenError.hasCode(error, 'TOOL_DEFINITION_INVALID');
  } catch {
    return false;
  }
}

function codeOf(error: unknown): unknown {
  try {
    return (error as { code?: unknown } | null | undefined)?.code;
  } catch {
    return undefined;
  }
}
