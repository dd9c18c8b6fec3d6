import type { CheckRunner } from '../../cli/run-check-in-child.js';
import { catchStrayErrors } from '../catch-stray-errors.js';
import { checkModule } from '../check-module.js';

/**
 * Runs `toolwarden check`'s check in this process, for tests of everything but the isolation: vitest
 * loads the TypeScript fixtures, and a fixture's state is the test's. No hard limit; the end goes
 * through JSON, as it does from the child process.
 */
export const runCheckHere: CheckRunner = async ({ request, onProgress }) => {
  const stop = catchStrayErrors((error) => onProgress({ type: 'stray', error }));
  try {
    const end = await checkModule(request, (event) => onProgress(JSON.parse(JSON.stringify(event))));
    await new Promise((resolve) => setImmediate(resolve));
    return { kind: 'finished', end: JSON.parse(JSON.stringify(end)) };
  } finally {
    stop();
  }
};
