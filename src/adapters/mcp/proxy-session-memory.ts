import { DEFAULT_GUARD_SAVE_ATTEMPTS, DEFAULT_SESSION_TTL_MS } from '../../core/defaults.js';
import type { Store } from '../../core/store.js';
import { restoreGuardState } from '../../guard/restore-guard-state.js';
import { storeKey } from '../../store/store-key.js';
import type { Observation } from './proxy/call-decision.js';
import type { UpstreamAnswer } from './proxy/guard-answer.js';
import type { PolicyMemory, ProxiedCall, SessionPolicy } from './proxy/session-policy.js';

/** The most stops a stored memory may carry: a window's worth of rounds, each a few calls, is far below. */
const MAX_STOPPED = 1_000;
const MAX_FINGERPRINT_CHARS = 4_096;
const SCHEMA_VERSION = 1;

/**
 * A session's policy memory (the loop guard's state and its stops) kept in the store under the session's
 * id, so that proxy instances sharing a store (Redis) serving one conversation act as one.
 */
export interface ProxySessionMemory {
  /** Before a call an earlier stop could refuse unrun: the store's memory taken up, if it is newer. */
  refresh(call: ProxiedCall): Promise<void>;
  /**
   * The guard's view of a call that ran, saved by compare-and-set: when another instance saved first,
   * its memory is taken up and the call observed again on it, so the answer is the one a single proxy
   * serving both would give. One store write for a call, when nobody else saved in between.
   */
  observe(call: ProxiedCall, answer: UpstreamAnswer): Promise<Observation>;
}

/**
 * Keeps `policy`'s memory in `store`. The saves of one session are taken in turn in this process (only
 * the guard's bookkeeping, never the upstream call), so a conflict means another instance saved. A store
 * that fails is reported through `onError` and the policy goes on with what this process knows.
 */
export function createProxySessionMemory(options: {
  readonly store: Store;
  readonly sessionId: string;
  readonly policy: SessionPolicy;
  readonly onError: (message: string) => void;
}): ProxySessionMemory {
  const { store, policy } = options;
  const key = storeKey(options.sessionId, 'proxy-guard');
  let version = 0;
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const next = turn.then(run, run);
    turn = next.catch(() => {});
    return next;
  };
  const failed = (what: string, error: unknown) =>
    options.onError(`the guard's memory could not be ${what}: ${messageOf(error)}`);

  return {
    refresh: (call) =>
      inTurn(async () => {
        if (!policy.refusesUnrun(call.name)) return;
        try {
          const entry = await store.get(key);
          if (entry === undefined || entry.version === version) return;
          policy.restore(readMemory(entry.value));
          version = entry.version;
        } catch (error) {
          failed('read', error);
        }
      }),
    observe: (call, answer) =>
      inTurn(async () => {
        let observation = policy.observe(call, answer);
        try {
          for (let attempt = 1; attempt <= DEFAULT_GUARD_SAVE_ATTEMPTS; attempt++) {
            const written = await store.set(key, storedMemory(policy.memory()), {
              ifVersion: version,
              ttlMs: DEFAULT_SESSION_TTL_MS,
            });
            if (written.ok) {
              version = written.version;
              return observation;
            }
            policy.restore(readMemory(written.current?.value));
            version = written.current?.version ?? 0;
            observation = policy.observe(call, answer);
          }
          failed('saved', new Error('it changed at every try'));
        } catch (error) {
          failed('saved', error);
        }
        return observation;
      }),
  };
}

function storedMemory(memory: PolicyMemory): unknown {
  return { schemaVersion: SCHEMA_VERSION, state: memory.state, stopped: memory.stopped };
}

/** A stored memory, read defensively: anything unexpected starts afresh (as `restoreGuardState` does). */
export function readMemory(value: unknown): PolicyMemory {
  const fresh: PolicyMemory = { state: restoreGuardState(undefined), stopped: [] };
  if (typeof value !== 'object' || value === null) return fresh;
  const { schemaVersion, state, stopped } = value as Record<string, unknown>;
  if (schemaVersion !== SCHEMA_VERSION || !Array.isArray(stopped) || stopped.length > MAX_STOPPED)
    return fresh;
  const pairs: (readonly [string, number])[] = [];
  for (const pair of stopped) {
    if (!Array.isArray(pair) || pair.length !== 2) return fresh;
    const [fingerprint, at] = pair as unknown[];
    if (typeof fingerprint !== 'string' || fingerprint.length > MAX_FINGERPRINT_CHARS) return fresh;
    if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0) return fresh;
    pairs.push([fingerprint, at]);
  }
  return { state: restoreGuardState(state), stopped: pairs };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}
