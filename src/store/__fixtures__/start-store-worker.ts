import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';

/**
 * Starts a worker process (`node --import tsx <script> ...args`) that opens its store, says `ready`, and
 * waits for a start time on stdin (see `awaitStart`); resolves once it is ready, so several workers can be
 * started at one moment. `outcome` is the JSON line the worker prints at the end, once it exited cleanly.
 */
export async function startStoreWorker(script: string, args: readonly string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  expect((await lines.next()).value).toBe('ready');
  return {
    start: (at: number) => child.stdin.end(`${at}\n`),
    outcome: async <T>(): Promise<T> => {
      const line = (await lines.next()).value as string;
      expect(await exited).toEqual([0, null]);
      return JSON.parse(line) as T;
    },
  };
}

/** Starts the workers together, a moment after all of them are ready, and collects their outcomes. */
export async function runTogether<T>(workers: readonly Awaited<ReturnType<typeof startStoreWorker>>[]) {
  const at = Date.now() + 100;
  for (const worker of workers) worker.start(at);
  return Promise.all(workers.map((worker) => worker.outcome<T>()));
}
