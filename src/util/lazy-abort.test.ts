import { describe, expect, it } from 'vitest';
import { LazyAbort } from './lazy-abort.js';

describe('LazyAbort', () => {
  it('gives one signal, made on first read, aborted with the first reason', () => {
    const lazy = new LazyAbort();
    const signal = lazy.signal;
    expect(lazy.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    lazy.abort('timeout');
    lazy.abort('later');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('timeout');
  });

  it('keeps an abort made before the signal was read', () => {
    const lazy = new LazyAbort();
    lazy.abort(new Error('run aborted'));
    lazy.abort('later');
    expect(lazy.signal.aborted).toBe(true);
    expect(lazy.signal.reason).toEqual(new Error('run aborted'));
  });
});
