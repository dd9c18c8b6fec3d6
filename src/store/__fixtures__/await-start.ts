import { createInterface } from 'node:readline';

/** In a worker started by `startStoreWorker`: says `ready`, then waits until the start time it is sent. */
export async function awaitStart(): Promise<void> {
  process.stdout.write('ready\n');
  const [line] = await createInterface({ input: process.stdin })
    [Symbol.asyncIterator]()
    .next()
    .then((r) => [r.value]);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(line) - Date.now())));
}
