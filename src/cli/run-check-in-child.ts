import { fork } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckModuleEnd, CheckModuleProgress, CheckModuleRequest } from '../check/check-module.js';
import { describeThrown } from '../check/preview-value.js';
import { stripTerminalEscapes } from '../util/strip-terminal-escapes.js';
import { isCheckWorkerMessage } from './check-worker-message.js';

/** The hard limits of a check: past one, the process running it is stopped. */
export interface CheckLimits {
  /** Starting the process (Node, a TypeScript loader) must finish within this. */
  readonly startMs: number;
  /** Importing the module must finish within this. */
  readonly loadMs: number;
  /** Each example, and each stretch between two (defining the tools, the end), must finish within this. */
  readonly stepMs: number;
}

/** How a check run ended: with the check's own end, at a hard limit, or cut short (the reason). */
export type CheckRunEnd =
  | { readonly kind: 'finished'; readonly end: CheckModuleEnd }
  | { readonly kind: 'timed-out'; readonly during: 'start' | 'import' | 'check' }
  | { readonly kind: 'failed'; readonly reason: string };

export interface CheckRun {
  readonly request: CheckModuleRequest;
  readonly limits: CheckLimits;
  /** The check's progress, in order (not its end). */
  readonly onProgress: (event: CheckModuleProgress) => void;
  /** What tool code printed, to stdout or stderr, made safe for a terminal. */
  readonly onOutput: (text: string) => void;
}

/** Runs a check somewhere and says how it ended. */
export type CheckRunner = (run: CheckRun) => Promise<CheckRunEnd>;

/** A process the module started may hold the output pipes open after ours ended: wait this long for them. */
const PIPES_GRACE_MS = 200;

/**
 * Runs the check in a child process (check-worker.ts) and kills it (SIGKILL) once it has the end, or
 * when the import or one example runs past its hard limit: a synchronous loop cannot be interrupted
 * from inside, but its process can be stopped from outside.
 *
 * A child process rather than a worker thread (which `terminate()` also stops in a loop, and which is
 * cheaper): tool code gets an ordinary process, as in the app (native addons that cannot load in a
 * worker, `process.chdir()`, signal handlers, process-wide `process.on` handlers and state), and nothing
 * it does (`process.exit()`, a crash of a native addon, running out of memory) can take the command
 * down; what it prints is a stream of its own, kept away from the report on stdout. It costs one Node
 * start per check.
 */
export function runCheckInChild(
  run: CheckRun,
  options: {
    /** Node's options for the process (default: this process's, e.g. `--import tsx`). */
    readonly execArgv?: readonly string[];
  } = {},
): Promise<CheckRunEnd> {
  return new Promise((resolve) => {
    // check-worker.ts beside this file when run from source (through a TypeScript loader), .js in dist/.
    const here = fileURLToPath(import.meta.url);
    const entry = fileURLToPath(new URL(`./check-worker${extname(here)}`, import.meta.url));
    const child = fork(entry, [], {
      cwd: run.request.cwd,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
      ...(options.execArgv === undefined ? {} : { execArgv: [...options.execArgv] }),
    });
    let result: CheckRunEnd | undefined;
    let during: 'start' | 'import' | 'check' = 'start';
    let timer: NodeJS.Timeout | undefined;
    const finish = (value: CheckRunEnd) => {
      if (result !== undefined) return;
      result = value;
      clearTimeout(timer);
      child.kill('SIGKILL');
    };
    const limitMs = { start: run.limits.startMs, import: run.limits.loadMs, check: run.limits.stepMs };
    const arm = () => {
      clearTimeout(timer);
      const phase = during;
      timer = setTimeout(() => finish({ kind: 'timed-out', during: phase }), limitMs[phase]);
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) =>
        run.onOutput(stripTerminalEscapes(text, { keepLineBreaks: true })),
      );
    }
    child.on('message', (message: unknown) => {
      if (result !== undefined || !isCheckWorkerMessage(message)) return;
      switch (message.type) {
        case 'done':
        case 'load-failed':
          finish({ kind: 'finished', end: message });
          return;
        case 'failed':
          finish({ kind: 'failed', reason: message.reason });
          return;
        case 'stray':
          // Not progress: it does not move the limit.
          run.onProgress(message);
          return;
        case 'ready':
          during = 'import';
          arm();
          return;
        default:
          if (message.type === 'loaded') during = 'check';
          run.onProgress(message);
          arm();
      }
    });
    child.on('error', (error) => {
      finish({ kind: 'failed', reason: `the process running it failed: ${describeThrown(error)}` });
      resolve(result as CheckRunEnd);
    });
    child.on('exit', (code, signal) => {
      finish({
        kind: 'failed',
        reason:
          code === null
            ? `the process running it was killed (${signal})`
            : `the process running it exited with code ${code} (does tool code call process.exit()?)`,
      });
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, PIPES_GRACE_MS).unref();
    });
    child.on('close', () => resolve(result as CheckRunEnd));
    child.send(run.request, () => undefined);
    arm();
  });
}
