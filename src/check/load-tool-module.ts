import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolwardenError } from '../core/errors/toolwarden-error.js';
import { describeThrown } from './preview-value.js';
import { ToolModuleError } from './tool-module-error.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/**
 * Imports a tools module by path (relative to `cwd`): `.js`, `.mjs` and `.cjs` as Node loads them; a
 * TypeScript module needs a TypeScript loader in the process (`node --import tsx`). Throws
 * `ToolModuleError` saying what went wrong; a `ToolDefinitionError` thrown while the module loads is
 * `definition-invalid`, so it can be reported as a failed check. A module that exports a function named
 * `then` is refused (`thenable`): `await import()` would hand the module to it instead of returning it.
 * An import that never settles never returns: bound it from outside (see `loadTools`).
 */
export async function loadToolModule(modulePath: string, cwd: string): Promise<Record<string, unknown>> {
  const absolute = resolve(cwd, modulePath);
  const fail = (problem: ToolModuleError['problem'], message: string, cause?: unknown): never => {
    throw new ToolModuleError({ modulePath, problem, message, cause });
  };
  const found = await stat(absolute).catch(() => undefined);
  if (found === undefined) return fail('not-found', `no such file: ${absolute}`);
  if (!found.isFile()) return fail('not-a-file', `not a file: ${absolute}`);
  let namespace: Record<string, unknown>;
  try {
    ({ namespace } = await importNamespace(pathToFileURL(absolute).href));
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
  if (typeof namespace.then === 'function') {
    return fail(
      'thenable',
      `${modulePath} exports a function named then, which makes the module a thenable: await import() hands the module to that function instead of returning it, and waits for it to call back (this is what loading it would do in your app too); rename that export`,
    );
  }
  return namespace;
}

/**
 * The module's namespace, untouched, in a box. `import(url)` resolves its promise with the namespace,
 * and a namespace with a `then` function is adopted as a thenable (so is any value a promise resolves
 * with, hence the box): `then` is called, and the import settles only if it calls back. Imported through
 * a one-line module that re-exports it as a property, the namespace arrives as it is, and such an export
 * can be refused with its reason.
 */
async function importNamespace(href: string): Promise<{ namespace: Record<string, unknown> }> {
  const wrapper = `import * as namespace from ${JSON.stringify(href)}; export { namespace };`;
  try {
    const imported = (await import(`data:text/javascript,${encodeURIComponent(wrapper)}`)) as {
      namespace: Record<string, unknown>;
    };
    return { namespace: imported.namespace };
  } catch (error) {
    // A test runner that handles `import()` in its own code but not in Node's loader (vitest) cannot load
    // a TypeScript module from a data: URL; a direct import works there (without the thenable check).
    // Without any TypeScript loader, it fails the same way again.
    if (codeOf(error) !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    return { namespace: (await import(href)) as Record<string, unknown> };
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
