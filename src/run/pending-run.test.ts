import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { MemoryStore } from '../store/memory-store.js';
import { readPendingRun } from './pending-run.js';

describe('readPendingRun: hostile arguments get the answers runToolLoop({ from: { runId } }) gives', () => {
  it.each([
    ['no run id', () => readPendingRun(new MemoryStore(), undefined as never), 'runId'],
    ['an empty run id', () => readPendingRun(new MemoryStore(), ''), 'runId'],
    ['a run id of a megabyte', () => readPendingRun(new MemoryStore(), 'x'.repeat(1 << 20)), 'runId'],
    ['a run id that is an object', () => readPendingRun(new MemoryStore(), {} as never), 'runId'],
    ['no store', () => readPendingRun(undefined as never, 'run-1'), 'store'],
    ['a store without get', () => readPendingRun({} as never, 'run-1'), 'store'],
    [
      'options that are not an object',
      () => readPendingRun(new MemoryStore(), 'run-1', null as never),
      'options',
    ],
  ])('%s: InvalidOptionsError naming %s', async (_name, read, option) => {
    const error = await read().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect(error).toMatchObject({ option });
  });
});
