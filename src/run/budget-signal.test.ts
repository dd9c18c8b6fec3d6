import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBudgetSignal } from './budget-signal.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('createBudgetSignal', () => {
  it('hands the model and the tools a signal only when something can abort the run', () => {
    const caller = new AbortController();
    const nothing = createBudgetSignal(undefined, Number.POSITIVE_INFINITY);
    const byCaller = createBudgetSignal(caller.signal, Number.POSITIVE_INFINITY);
    const byTime = createBudgetSignal(undefined, 60_000);
    const byStream = createBudgetSignal(undefined, Number.POSITIVE_INFINITY, true);
    expect(nothing.handed).toBeUndefined();
    expect([byCaller, byTime, byStream].map((budget) => budget.handed)).toEqual([
      byCaller.signal,
      byTime.signal,
      byStream.signal,
    ]);
    for (const budget of [nothing, byCaller, byTime, byStream]) budget.dispose();
  });

  it('without a caller or a time budget: never aborts by itself', () => {
    vi.useFakeTimers();
    const budget = createBudgetSignal(undefined, Number.POSITIVE_INFINITY);
    expect(vi.getTimerCount()).toBe(0);
    expect(budget.signal.aborted).toBe(false);
    expect(budget.cause()).toBeUndefined();
    budget.dispose();
  });

  it("follows the caller's signal, with its reason", () => {
    const caller = new AbortController();
    const budget = createBudgetSignal(caller.signal, Number.POSITIVE_INFINITY);
    caller.abort(new Error('closed'));
    expect(budget.signal.aborted).toBe(true);
    expect(budget.signal.reason).toEqual(new Error('closed'));
    expect(budget.cause()).toBe('caller');
  });

  it('starts aborted when the caller already aborted', () => {
    const caller = new AbortController();
    caller.abort('gone');
    const budget = createBudgetSignal(caller.signal, 1_000);
    expect(budget.signal.reason).toBe('gone');
    expect(budget.cause()).toBe('caller');
    budget.dispose();
  });

  it('with a time budget, aborts when it runs out and says so; the caller can abort first', () => {
    vi.useFakeTimers();
    const budget = createBudgetSignal(undefined, 1_000);
    vi.advanceTimersByTime(999);
    expect(budget.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(budget.signal.aborted).toBe(true);
    expect(budget.cause()).toBe('time');

    const caller = new AbortController();
    const both = createBudgetSignal(caller.signal, 1_000);
    caller.abort();
    vi.advanceTimersByTime(1_000);
    expect(both.signal.aborted).toBe(true);
    expect(both.cause()).toBe('caller');
  });

  it('cancel aborts the run once; later causes do not overwrite it', () => {
    const caller = new AbortController();
    const budget = createBudgetSignal(caller.signal, Number.POSITIVE_INFINITY);
    budget.cancel('consumer left');
    caller.abort('late');
    expect(budget.signal.reason).toBe('consumer left');
    expect(budget.cause()).toBe('cancelled');
  });

  it('disposed, neither the time budget nor the caller reaches it', () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const budget = createBudgetSignal(caller.signal, 1_000);
    budget.dispose();
    expect(vi.getTimerCount()).toBe(0);
    caller.abort();
    vi.advanceTimersByTime(5_000);
    expect(budget.signal.aborted).toBe(false);
  });
});
