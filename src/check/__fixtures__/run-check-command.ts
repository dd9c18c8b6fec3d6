import { runCheckCommand } from '../../cli/check-command.js';
import type { CheckRunner } from '../../cli/run-check-in-child.js';
import { runCheckHere } from './run-check-here.js';
import { root } from './spawn-check.js';

export interface CheckCommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/**
 * Runs `toolwarden check` (the command, without main.ts) from the repository root, with the check run
 * by `runner`: by default in this process (vitest loads the TypeScript fixtures).
 */
export async function runCheck(
  args: readonly string[],
  runner: CheckRunner = runCheckHere,
): Promise<CheckCommandResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCheckCommand(
    args,
    {
      cwd: root,
      stdout: async (text) => {
        stdout += text;
      },
      stderr: async (text) => {
        stderr += text;
      },
    },
    { runner },
  );
  return { stdout, stderr, code };
}
