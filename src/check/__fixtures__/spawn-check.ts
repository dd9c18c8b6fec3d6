import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../..', import.meta.url));
const main = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

export interface SpawnedCheck {
  readonly stdout: string;
  readonly stderr: string;
  /** The exit code; null when the process did not end by itself within `killAfterMs` (it is killed). */
  readonly code: number | null;
}

/**
 * Runs the real CLI in a child process, through the tsx loader, as CI would. A process still running
 * after `killAfterMs` is killed: a hang shows as `code: null`, not as a test runner left waiting.
 */
export function spawnCheck(args: readonly string[], killAfterMs = 45_000): Promise<SpawnedCheck> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', main, 'check', ...args],
      { cwd: root, timeout: killAfterMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : error.killed ? null : (error.code as number);
        resolve({ stdout, stderr, code });
      },
    );
  });
}
