import type { Message } from '../messages/message.js';
import { addCall, copyTurnCounts, countTurnCalls, type TurnCounts } from './turn-counts.js';

/** Where a history the runtime returned keeps its counts: a hidden property of that array. */
const COUNTED = Symbol('toolwarden.turnCounts');

interface Counted {
  readonly cache: TurnCountCache;
  readonly length: number;
  readonly counts: TurnCounts;
}

/**
 * The turn counts of histories a runtime returned, so that a caller who hands the returned history back
 * (a hand-written loop) does not pay for a walk over the whole turn on every call. They are kept on the
 * returned array itself (a non-enumerable symbol property, gone with the array: no map to grow, nothing
 * for the garbage collector to trace); messages appended to it since are counted on top, and anything
 * else (a copy, another runtime's history) is counted afresh.
 */
export interface TurnCountCache {
  /** The counts of `messages`, as a copy the caller may update. */
  countsFor(messages: readonly Message[]): TurnCounts;
  /** Remembers the counts of a history this runtime created (kept as they are: no change after this). */
  remember(messages: readonly Message[], counts: TurnCounts): void;
}

export function createTurnCountCache(isExcluded: (toolName: string) => boolean): TurnCountCache {
  const cache: TurnCountCache = {
    countsFor(messages) {
      const entry = (messages as { [COUNTED]?: Counted })[COUNTED];
      if (entry?.cache !== cache || messages.length < entry.length)
        return countTurnCalls(messages, isExcluded);
      const counts = copyTurnCounts(entry.counts);
      for (let index = entry.length; index < messages.length; index++) {
        const message = messages[index];
        if (typeof message !== 'object' || message === null || message.role === 'assistant') continue;
        // A new turn, or a call whose name must be looked up: the full count knows how.
        if (message.role === 'user') return countTurnCalls(messages, isExcluded);
        if (message.role !== 'tool') continue;
        if (typeof message.name !== 'string' || message.name === '')
          return countTurnCalls(messages, isExcluded);
        addCall(counts, message.name, message.errorCode, isExcluded);
      }
      return counts;
    },
    remember(messages, counts) {
      const entry: Counted = { cache, length: messages.length, counts };
      Object.defineProperty(messages, COUNTED, { value: entry });
    },
  };
  return cache;
}
