import { describeThrown } from './preview-value.js';

/**
 * Catches what tool code throws outside any example (a rejected promise nobody awaits, a throwing timer)
 * while a check runs in this process, so that it is reported instead of ending the process: each error,
 * as one line, goes to `onStray`. Returns the function that stops catching.
 */
export function catchStrayErrors(onStray: (error: string) => void): () => void {
  const handler = (error: unknown) => onStray(describeThrown(error));
  process.on('unhandledRejection', handler);
  process.on('uncaughtException', handler);
  return () => {
    process.off('unhandledRejection', handler);
    process.off('uncaughtException', handler);
  };
}
