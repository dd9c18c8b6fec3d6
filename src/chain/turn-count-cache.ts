import type { Message } from '../core/message.js';
import { addCall, copyTurnCounts, countTurnCalls, type TurnCounts } from './limits.js';

/** Where the last message of a history a runtime returned keeps the turn's counts up to it. */
const COUNTED = Symbol('toolwarden.turnCounts');

interface Counted {
  readonly cache: TurnCountCache;
  /** Where the message stood in the history it was returned in. */
  readonly position: number;
  readonly counts: TurnCounts;
}

/**
 * The turn counts of histories a runtime returned, so that a caller who hands the returned history back
 * (a hand-written loop) does not pay for a walk over the whole turn on every call. The counts ride on the
 * last message of the returned history (a non-enumerable symbol property of the tool message the runtime
 * made: no map to grow, nothing for the garbage collector to trace, and the array itself stays an ordinary
 * array). Counting walks back from the end only to that message, when it still stands where it stood;
 * anything else (a trimmed history, another runtime's) is counted in full.
 */
export interface TurnCountCache {
  /** The counts of `messages`, as a copy the caller may update. */
  countsFor(messages: readonly Message[]): TurnCounts;
  /** Remembers the counts of a history this runtime made (kept as they are: no change after this). */
  remember(messages: readonly Message[], counts: TurnCounts): void;
}

export function createTurnCountCache(isExcluded: (toolName: string) => boolean): TurnCountCache {
  const cache: TurnCountCache = {
    countsFor(messages) {
      for (let index = messages.length - 1; index >= 0; index--) {
        const message = messages[index];
        if (typeof message !== 'object' || message === null) continue;
        if (message.role === 'user') break;
        const entry = (message as { [COUNTED]?: Counted })[COUNTED];
        if (entry?.cache === cache && entry.position === index)
          return countAfter(entry.counts, messages, index);
      }
      return countTurnCalls(messages, isExcluded);
    },
    remember(messages, counts) {
      const last = messages.at(-1);
      if (typeof last !== 'object' || last === null || Object.isFrozen(last)) return;
      const entry: Counted = { cache, position: messages.length - 1, counts };
      // Configurable: a message handed back can end another history the runtime returns (a resumed round).
      Object.defineProperty(last, COUNTED, { value: entry, configurable: true });
    },
  };

  /** The remembered counts, plus the tool messages after `index` (no user message among them). */
  function countAfter(remembered: TurnCounts, messages: readonly Message[], index: number): TurnCounts {
    const counts = copyTurnCounts(remembered);
    for (let next = index + 1; next < messages.length; next++) {
      const message = messages[next];
      if (typeof message !== 'object' || message === null || message.role !== 'tool') continue;
      // A call whose name must be looked up: the full count knows how.
      if (typeof message.name !== 'string' || message.name === '')
        return countTurnCalls(messages, isExcluded);
      addCall(counts, { name: message.name, errorCode: message.errorCode }, isExcluded);
    }
    return counts;
  }

  return cache;
}
