import type { Store } from '../../core/store.js';
import { MemoryStore } from '../../store/memory-store.js';
import { storeKey } from '../../store/store-key.js';

/** Where the records of one response's idempotent calls are kept. */
export interface IdempotencyScope {
  readonly sessionId: string | undefined;
  readonly turnId: string | undefined;
  /**
   * Whether a tool of the runtime keys its records by its arguments: then a record answers only while no
   * other call that may change something ran in the scope, so every such call ends that window (see
   * `latest-write.ts`); a tool's own key names its action, and needs no window.
   */
  readonly keyedByArguments: () => boolean;
  /** The store and the key of the record of a call to `toolName` whose key has this SHA-256. */
  recordOf(toolName: string, keyDigest: string): { readonly store: Store; readonly key: string };
  /** The store and the key of the scope's latest write (which every claim replaces). */
  latest(): { readonly store: Store; readonly key: string };
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
  readonly keyedByArguments?: () => boolean;
}): IdempotencyScope {
  const { sessionId, turnId, runId, store } = options;
  const [owner, what] =
    sessionId !== undefined
      ? [sessionId, 'idem']
      : turnId !== undefined
        ? [turnId, 'idem-turn']
        : runId !== undefined
          ? [runId, 'idem-run']
          : ['response', 'idem'];
  const inMemory = sessionId === undefined && turnId === undefined && runId === undefined;
  let own: MemoryStore | undefined;
  const where = () => {
    if (inMemory) own ??= new MemoryStore();
    return own ?? store;
  };
  return {
    sessionId,
    turnId,
    keyedByArguments: options.keyedByArguments ?? (() => true),
    recordOf: (toolName, keyDigest) => ({ store: where(), key: storeKey(owner, what, toolName, keyDigest) }),
    latest: () => ({ store: where(), key: storeKey(owner, `${what}-latest`) }),
  };
}
