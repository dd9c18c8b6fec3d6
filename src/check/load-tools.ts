import { type CollectedTools, collectTools, type UnreadableExport } from './collect-tools.js';
import { loadToolModule } from './load-tool-module.js';
import { settleWithin } from './settle-within.js';
import { ToolModuleError } from './tool-module-error.js';

export interface LoadToolsOptions {
  /**
   * Refuse an import that has not settled after this many milliseconds (`timed-out`): a top-level
   * await that never settles. Nothing in the process can stop a synchronous loop at import: for that,
   * load the module in a process of its own (what `toolwarden check` does).
   */
  readonly timeoutMs?: number;
}

/**
 * Loads a tools module (see `loadToolModule`) and collects its tools (see `collectTools`): what
 * `toolwarden check` checks and `toolwarden run --tools` runs. A module without a tool is refused
 * (`no-tools`), naming what it exports and what could not be read.
 */
export async function loadTools(
  modulePath: string,
  cwd: string,
  options: LoadToolsOptions = {},
): Promise<CollectedTools> {
  let namespace: Record<string, unknown>;
  if (options.timeoutMs === undefined) {
    namespace = await loadToolModule(modulePath, cwd);
  } else {
    const { timeoutMs } = options;
    const loaded = await settleWithin(() => loadToolModule(modulePath, cwd), timeoutMs);
    if (loaded.kind === 'error') throw loaded.error;
    if (loaded.kind === 'timeout') {
      throw new ToolModuleError({
        modulePath,
        problem: 'timed-out',
        message: `importing ${modulePath} did not finish within ${timeoutMs} ms (a top-level await that never settles?)`,
      });
    }
    namespace = loaded.value;
  }
  const collected = collectTools(namespace);
  if (collected.targets.length === 0) {
    throw new ToolModuleError({
      modulePath,
      problem: 'no-tools',
      message: `${modulePath} exports no tools (${exportsOf(namespace, collected.unreadable)}); export tools made by defineTool, their definitions, or an array of them`,
    });
  }
  return collected;
}

function exportsOf(namespace: Record<string, unknown>, unreadable: readonly UnreadableExport[]): string {
  const unreadableNames = new Set(unreadable.map((entry) => entry.name));
  const readable = Object.keys(namespace)
    .filter((key) => !unreadableNames.has(key))
    .sort();
  const parts = [
    ...(readable.length === 0 ? [] : [`its exports: ${readable.join(', ')}`]),
    ...unreadable.map((entry) => `${entry.name} cannot be read: ${entry.reason}`),
  ];
  return parts.length === 0 ? 'it exports nothing' : parts.join('; ');
}
