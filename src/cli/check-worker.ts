// The process `toolwarden check` loads a tools module in and runs its examples (run-check-in-child.ts
// starts it): the request comes as the first IPC message; the progress and the end go back the same
// way. The parent stops this process once it has the end, or at a hard time limit.
import { setTimeout as delay } from 'node:timers/promises';
import { catchStrayErrors } from '../check/catch-stray-errors.js';
import { type CheckModuleRequest, checkModule } from '../check/check-module.js';
import { describeThrown } from '../check/preview-value.js';
import { CHECK_DRAIN_MS } from '../core/defaults.js';
import type { CheckWorkerMessage } from './check-worker-message.js';

const send = process.send?.bind(process);
if (send === undefined) {
  process.stderr.write('check-worker: toolwarden check starts this process; it is not a command\n');
  process.exitCode = 2;
} else {
  // Tool code sees an ordinary process: no channel to the parent to write to or to close.
  Reflect.deleteProperty(process, 'send');
  Reflect.deleteProperty(process, 'disconnect');
  // The parent is gone: nobody will read the report.
  process.on('disconnect', () => process.exit(1));
  process.once('message', (request: CheckModuleRequest) => {
    // The channel no longer keeps this process alive: when nothing is left to run, 'beforeExit' tells.
    process.channel?.unref();
    void work(request, send);
  });
}

async function work(request: CheckModuleRequest, sendMessage: (message: CheckWorkerMessage) => boolean) {
  let loaded = false;
  let ended = false;
  const post = (message: CheckWorkerMessage) => {
    try {
      sendMessage(message);
    } catch {
      // The parent is gone.
    }
  };
  catchStrayErrors((error) => post({ type: 'stray', error }));
  // Nothing left to run and no end: the import (or a step) waits on a promise nothing can settle.
  process.on('beforeExit', () => {
    if (ended) return;
    ended = true;
    post(
      loaded
        ? { type: 'failed', reason: 'the check stopped with nothing left to run' }
        : {
            type: 'load-failed',
            problem: 'never-settles',
            message: `importing ${request.modulePath} never finished: a top-level await waits on something that can never settle (the process had nothing left to run)`,
          },
    );
  });
  post({ type: 'ready' });
  let end: CheckWorkerMessage;
  try {
    end = await checkModule(request, (event) => {
      if (event.type === 'loaded') loaded = true;
      post(event);
    });
    // Errors the last examples scheduled (a rejection a moment later) surface before the verdict.
    if (end.type === 'done') await delay(CHECK_DRAIN_MS);
  } catch (error) {
    end = { type: 'failed', reason: `the check itself failed: ${describeThrown(error)}` };
  }
  if (ended) return;
  ended = true;
  post(end);
}
