import { afterEach, describe, expect, it, vi } from 'vitest';
import { settleWithin } from './settle-within.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('settleWithin', () => {
  it('returns a synchronous value or throw as is, without a timer', async () => {
    vi.useFakeTimers();
    expect(await settleWithin(() => 7, 10)).toEqual({ kind: 'value', value: 7 });
    const error = new Error('x');
    expect(
      await settleWithin(() => {
        throw error;
      }, 10),
    ).toEqual({ kind: 'error', error });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits for a promise, and clears its timer once it settles', async () => {
    vi.useFakeTimers();
    expect(await settleWithin(async () => 'late', 10)).toEqual({ kind: 'value', value: 'late' });
    expect(await settleWithin(() => Promise.reject('no'), 10)).toEqual({ kind: 'error', error: 'no' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives up at the timeout, aborts the signal, and drops a late settlement', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    let settle: (value: string) => void = () => {};
    const pending = settleWithin((s) => {
      signal = s;
      return new Promise<string>((resolve) => {
        settle = resolve;
      });
    }, 100);
    await vi.advanceTimersByTimeAsync(99);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ kind: 'timeout' });
    expect(signal?.aborted).toBe(true);
    settle('too late');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('treats a thenable like a promise, and a thenable whose then throws as an error', async () => {
    const thenable = (then: (ok: (value: number) => void) => void) =>
      ({ then }) as unknown as PromiseLike<number>;
    expect(await settleWithin(() => thenable((ok) => ok(3)), 10)).toEqual({ kind: 'value', value: 3 });
    const outcome = await settleWithin(
      () =>
        thenable(() => {
          throw new Error('bad then');
        }),
      10,
    );
    expect(outcome).toMatchObject({ kind: 'error', error: new Error('bad then') });
  });
});
