import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBudgetSignal } from './budget-signal.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('createBudgetSignal', () => {
  it('without a caller or a time budget: nothing can abort, and the signal is one signal', () => {
    const budget = createBudgetSignal(undefined, Number.POSITIVE_INFINITY);
    expect(budget.canAbort).toBe(false);
    expect(budget.signal).toBeInstanceOf(AbortSignal);
    expect(budget.signal).toBe(budget.signal);
    expect(budget.signal.aborted).toBe(false);
    expect(budget.timedOut()).toBe(false);
    budget.dispose();
  });

  it("without a time budget, the caller's signal is the request's", () => {
    const caller = new AbortController();
    const budget = createBudgetSignal(caller.signal, Number.POSITIVE_INFINITY);
    expect(budget.canAbort).toBe(true);
    caller.abort(new Error('closed'));
    expect(budget.signal.aborted).toBe(true);
    expect(budget.signal.reason).toEqual(new Error('closed'));
    expect(budget.timedOut()).toBe(false);
  });

  it('with a time budget, aborts when it runs out and says so; the caller can abort first', () => {
    vi.useFakeTimers();
    const budget = createBudgetSignal(undefined, 1_000);
    expect(budget.canAbort).toBe(true);
    vi.advanceTimersByTime(999);
    expect(budget.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(budget.signal.aborted).toBe(true);
    expect(budget.timedOut()).toBe(true);

    const caller = new AbortController();
    const both = createBudgetSignal(caller.signal, 1_000);
    caller.abort();
    vi.advanceTimersByTime(1_000);
    expect(both.signal.aborted).toBe(true);
    expect(both.timedOut()).toBe(false);
  });

  it('disposed, the time budget no longer fires', () => {
    vi.useFakeTimers();
    const budget = createBudgetSignal(undefined, 1_000);
    budget.dispose();
    vi.advanceTimersByTime(5_000);
    expect(budget.signal.aborted).toBe(false);
  });
});
