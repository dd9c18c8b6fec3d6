import type { CommandIo } from '../command-io.js';

/** What a command wrote and the exit code it returned. */
export interface CapturedRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/** Runs a command in this process with an io that writes into strings. */
export async function runCaptured(
  command: (io: CommandIo) => Promise<number>,
  cwd: string = process.cwd(),
): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const code = await command({
    cwd,
    stdout: async (text) => {
      stdout += text;
    },
    stderr: async (text) => {
      stderr += text;
    },
  });
  return { stdout, stderr, code };
}
