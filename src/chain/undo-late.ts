/**
 * What a bounded wait does with a value that arrives after it gave up (its timeout, an abort): hands it to
 * `undo`, which gives back what it took (a claim that landed, a reservation that counted). `giveUp` is
 * called as the wait ends early, before its rejection; `watch` wraps what was sent.
 */
export function undoLate<T>(undo: ((value: T) => void) | undefined): {
  readonly giveUp: () => void;
  readonly watch: (sent: T | PromiseLike<T>) => T | PromiseLike<T>;
} {
  let gaveUp = false;
  return {
    giveUp: () => {
      gaveUp = true;
    },
    watch: (sent) => {
      if (undo === undefined) return sent;
      Promise.resolve(sent).then(
        (value) => {
          if (!gaveUp) return;
          try {
            undo(value);
          } catch {
            // An undo that throws leaves what was taken taken (a limit errs low, a claim's lease passes).
          }
        },
        () => {},
      );
      return sent;
    },
  };
}
