import { MemoryStore } from '../../store/memory-store.js';
import type { Store } from '../../store/store.js';
import { storeKey } from '../../store/store-key.js';

/** Where the records of one response's idempotent calls are kept. */
export interface IdempotencyScope {
  readonly sessionId: string | undefined;
  readonly turnId: string | undefined;
  /**
   * The store and the key of the record of a call to `toolName` whose key has this SHA-256, and the key of
   * the scope's latest write (which every write's claim replaces, see `latest-write.ts`).
   */
  recordOf(
    toolName: string,
    keyDigest: string,
  ): { readonly store: Store; readonly key: string; readonly latestKey: string };
}

/**
 * The scope of a response's records: its session (`tw:{<session>}:idem:<tool>:<sha256>`, in the runtime's
 * store), else its turn (`tw:{<turn>}:idem-turn:…`), else the loop's run (`tw:{<run id>}:idem-run:…`: its
 * rounds and its resumes), else the response alone: then the records live in a memory of the response's
 * own, so only identical writes of one response are one action. The same arguments in two conversations
 * are two intentions (two users each asking to email Bob), so nothing wider than a session is one action.
 * Each scope keeps, beside the records, the claim of its latest write (`…:idem-latest`, `…:idem-turn-latest`).
 */
export function createIdempotencyScope(options: {
  readonly sessionId: string | undefined;
  readonly turnId: string | undefined;
  readonly runId?: string | undefined;
  readonly store: Store;
}): IdempotencyScope {
  const { sessionId, turnId, runId, store } = options;
  let own: MemoryStore | undefined;
  return {
    sessionId,
    turnId,
    recordOf(toolName, keyDigest) {
      const [owner, what] =
        sessionId !== undefined
          ? [sessionId, 'idem']
          : turnId !== undefined
            ? [turnId, 'idem-turn']
            : runId !== undefined
              ? [runId, 'idem-run']
              : ['response', 'idem'];
      if (sessionId === undefined && turnId === undefined && runId === undefined) own ??= new MemoryStore();
      return {
        store: own ?? store,
        key: storeKey(owner, what, toolName, keyDigest),
        latestKey: storeKey(owner, `${what}-latest`),
      };
    },
  };
}
