import { describe, expect, it } from 'vitest';
import { createAsyncQueue } from './async-queue.js';

describe('createAsyncQueue', () => {
  it('loses nothing pushed while nobody waits, or while someone does', async () => {
    const queue = createAsyncQueue<number>();
    queue.push(1);
    await queue.wait();
    const waiting = queue.wait();
    queue.push(2);
    queue.push(3);
    await waiting;
    expect(queue.drain()).toEqual([1, 2, 3]);
    expect(queue.drain()).toEqual([]);
  });

  it('ends a wait on wake without an item', async () => {
    const queue = createAsyncQueue<number>();
    const waiting = queue.wait();
    queue.wake();
    await waiting;
    expect(queue.drain()).toEqual([]);
  });
});
