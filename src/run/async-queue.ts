/**
 * A queue that a synchronous producer (the chain's event listener) fills and an async generator empties.
 * `wait` resolves when something is pushed or `wake` is called; nothing pushed is ever lost.
 */
export interface AsyncQueue<T> {
  push(item: T): void;
  /** Resolves at once when items are queued, else at the next `push` or `wake`. */
  wait(): Promise<void>;
  /** Ends a `wait` without an item (the producer finished). */
  wake(): void;
  /** Takes every queued item. */
  drain(): T[];
}

export function createAsyncQueue<T>(): AsyncQueue<T> {
  let items: T[] = [];
  let notify: (() => void) | undefined;
  const wake = () => {
    const resolve = notify;
    notify = undefined;
    resolve?.();
  };
  return {
    push(item) {
      items.push(item);
      wake();
    },
    wait() {
      if (items.length > 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        notify = resolve;
      });
    },
    wake,
    drain() {
      const taken = items;
      items = [];
      return taken;
    },
  };
}
