import fc from 'fast-check';
import { TOOL_NAMES } from './hostile-tools.js';
import { hugeString, materializeValue, POLLUTION_KEY, type ValueSpec, valueSpec } from './hostile-values.js';
import { record } from './plain-record.js';
import { type FuzzStore, savedGuardRounds } from './targets.js';

/** A number where the guard state expects a count: ordinary, huge, or not a count at all. */
export type CountSpec = number;

export interface RoundSpec {
  readonly round: CountSpec;
  readonly calls: readonly {
    readonly tool: string;
    readonly call: CountSpec;
    readonly result: CountSpec;
    readonly transient: boolean;
  }[];
}

/** A stored guard state, as a store might hand it back. */
export type StateSpec =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'state';
      readonly schemaVersion: 2 | 1 | 3 | '2';
      readonly nextRound: CountSpec;
      readonly staleRounds: CountSpec;
      readonly window: readonly (RoundSpec | { readonly junk: ValueSpec })[];
      readonly nudged: readonly (
        | { readonly text: string }
        | { readonly huge: true }
        | { readonly junk: ValueSpec }
      )[];
      /** Own `__proto__` and `constructor` keys, as JSON.parse makes them. */
      readonly protoKeys: boolean;
    }
  | { readonly kind: 'value'; readonly value: ValueSpec };

/**
 * What is done to a state the guard saved before the next request reads it back: a stored state edited
 * by hand, by a bug, or by an attacker with access to the store.
 */
export interface TamperSpec {
  /** The state's request counter (a count in the version the guard writes). */
  readonly request: CountSpec | undefined;
  readonly nextRound: CountSpec | undefined;
  /** A 10-MB string among the nudged fingerprints. */
  readonly hugeNudged: boolean;
  /** One round of the window replaced by junk: a partly valid state. */
  readonly junkRound: boolean;
  readonly protoKeys: boolean;
}

export type StoreSpec =
  | { readonly kind: 'none' }
  /** Two requests of one session: the second reads the first one's state back, tampered with. */
  | { readonly kind: 'session'; readonly tamper: TamperSpec }
  | { readonly kind: 'working'; readonly state: StateSpec }
  | { readonly kind: 'load-throws-sync' }
  | { readonly kind: 'load-rejects'; readonly value: ValueSpec }
  | { readonly kind: 'load-never-settles' }
  | { readonly kind: 'save-rejects'; readonly state: StateSpec }
  | { readonly kind: 'save-never-settles'; readonly state: StateSpec };

/** Saved states larger than this are kept garbage (the guard's own state is a few kilobytes). */
export const MAX_SAVED_STATE_CHARS = 1_000_000;

/** What a store saw: the saved-state oracle reads it. */
export interface StoreRecord {
  loads: number;
  saves: number;
  /** Length of the last saved state as JSON, or the reason it could not be written as JSON. */
  lastSaved: number | string | undefined;
  /** Rounds in the window of the last saved state. */
  lastSavedRounds: number | undefined;
  /** A session whose stored state was tampered into one that does not check out (docs/loop-and-guard.md: starts afresh). */
  invalidated: boolean;
}

function materializeState(spec: StateSpec): unknown {
  switch (spec.kind) {
    case 'absent':
      return undefined;
    case 'value':
      return materializeValue(spec.value);
    case 'state': {
      const state: Record<string, unknown> = spec.protoKeys
        ? JSON.parse(
            `{"__proto__":{"${POLLUTION_KEY}":true},"constructor":{"prototype":{"${POLLUTION_KEY}":true}}}`,
          )
        : {};
      state.schemaVersion = spec.schemaVersion;
      state.nextRound = spec.nextRound;
      state.staleRounds = spec.staleRounds;
      state.window = spec.window.map((round) =>
        'junk' in round
          ? materializeValue(round.junk)
          : { round: round.round, calls: round.calls.map((call) => ({ ...call })) },
      );
      state.nudged = spec.nudged.map((entry) =>
        'text' in entry
          ? entry.text
          : 'huge' in entry
            ? hugeString(10_485_760)
            : materializeValue(entry.junk),
      );
      return state;
    }
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

function recordSave(record: StoreRecord, state: unknown): void {
  record.saves++;
  record.lastSavedRounds = savedGuardRounds(state);
  try {
    const text = JSON.stringify(state);
    record.lastSaved = typeof text === 'string' ? text.length : 'not JSON (undefined)';
  } catch (error) {
    record.lastSaved = `not JSON (${error instanceof Error ? error.name : 'a thrown value'})`;
  }
}

const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

/** Whether the tampering leaves a state that does not check out (a junk round, a count that is none). */
function breaksState(state: unknown, tamper: TamperSpec): boolean {
  const window = (state as { window?: unknown } | null)?.window;
  return (
    (tamper.junkRound && Array.isArray(window) && window.length > 0) ||
    (tamper.request !== undefined && !isCount(tamper.request)) ||
    (tamper.nextRound !== undefined && !isCount(tamper.nextRound))
  );
}

function tamperWith(state: unknown, tamper: TamperSpec): unknown {
  if (typeof state !== 'object' || state === null) return state;
  const edited: Record<string, unknown> = tamper.protoKeys
    ? Object.assign(JSON.parse(`{"__proto__":{"${POLLUTION_KEY}":true}}`), state)
    : { ...state };
  if (tamper.request !== undefined) edited.request = tamper.request;
  if (tamper.nextRound !== undefined) edited.nextRound = tamper.nextRound;
  if (tamper.hugeNudged && Array.isArray(edited.nudged))
    edited.nudged = [...edited.nudged, hugeString(10_485_760)];
  if (tamper.junkRound && Array.isArray(edited.window) && edited.window.length > 0) {
    edited.window = [{ round: 'junk', calls: 7 }, ...edited.window.slice(1)];
  }
  return edited;
}

export interface MaterializedStore {
  readonly store: FuzzStore | undefined;
  readonly record: StoreRecord;
  /** How many requests of the session to run (2 for a session), and what happens between them. */
  readonly requests: number;
  betweenRequests(): void;
}

/** Builds the store of one run (undefined: no store), and the record of what it saw. */
export function materializeStore(spec: StoreSpec): MaterializedStore {
  const record: StoreRecord = {
    loads: 0,
    saves: 0,
    lastSaved: undefined,
    lastSavedRounds: undefined,
    invalidated: false,
  };
  const single = (store: FuzzStore | undefined): MaterializedStore => ({
    store,
    record,
    requests: 1,
    betweenRequests: () => undefined,
  });
  const never = () => new Promise<never>(() => undefined);
  const working = (state: StateSpec): FuzzStore => ({
    load: async () => {
      record.loads++;
      return materializeState(state);
    },
    save: async (_id, saved) => recordSave(record, saved),
  });
  switch (spec.kind) {
    case 'none':
      return single(undefined);
    case 'session': {
      // Kept as JSON text between requests, as a real store keeps it.
      let saved: string | undefined;
      const store: FuzzStore = {
        load: async () => {
          record.loads++;
          return saved === undefined ? undefined : JSON.parse(saved);
        },
        save: async (_id, state) => {
          recordSave(record, state);
          saved = JSON.stringify(state);
        },
      };
      return {
        store,
        record,
        requests: 2,
        betweenRequests: () => {
          // The record is the last request's.
          record.saves = 0;
          record.lastSaved = undefined;
          record.lastSavedRounds = undefined;
          if (saved !== undefined) record.invalidated = breaksState(JSON.parse(saved), spec.tamper);
          if (saved !== undefined) saved = JSON.stringify(tamperWith(JSON.parse(saved), spec.tamper));
        },
      };
    }
    case 'working':
      return single(working(spec.state));
    case 'load-throws-sync':
      return single({
        load: () => {
          throw new Error('fuzz: the store is down');
        },
        save: async (_id, saved) => recordSave(record, saved),
      });
    case 'load-rejects':
      return single({
        load: () => Promise.reject(materializeValue(spec.value)),
        save: async (_id, saved) => recordSave(record, saved),
      });
    case 'load-never-settles':
      return single({ load: never, save: async (_id, saved) => recordSave(record, saved) });
    case 'save-rejects':
      return single({
        ...working(spec.state),
        save: () => Promise.reject(new Error('fuzz: the store refused the write')),
      });
    case 'save-never-settles':
      return single({ ...working(spec.state), save: never });
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

/** Counts as a restored state has them: mostly small, sometimes absurd (1e7 rounds of staleness). */
function countSpec(options: { readonly absurd: boolean }): fc.Arbitrary<CountSpec> {
  const arbitraries = [
    { weight: 30, arbitrary: fc.integer({ min: 0, max: 8 }) },
    { weight: 3, arbitrary: fc.constantFrom(1_000, 100_000, Number.MAX_SAFE_INTEGER) },
    { weight: 3, arbitrary: fc.constantFrom(-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY) },
  ];
  if (options.absurd) arbitraries.push({ weight: 2, arbitrary: fc.constantFrom(1e6, 1e7, 3e7) });
  return fc.oneof(...arbitraries);
}

export function stateSpec(): fc.Arbitrary<StateSpec> {
  const count = countSpec({ absurd: false });
  const round: fc.Arbitrary<RoundSpec> = record({
    round: count,
    calls: fc.array(
      record({
        tool: fc.oneof(fc.constantFrom(...TOOL_NAMES), fc.string({ maxLength: 8 })),
        call: fc.oneof(fc.integer({ min: 0, max: 20 }), count),
        result: fc.oneof(fc.integer({ min: 0, max: 20 }), count),
        transient: fc.boolean(),
      }),
      { maxLength: 4 },
    ),
  });
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: 'absent' as const }) },
    {
      weight: 12,
      arbitrary: record({
        kind: fc.constant('state' as const),
        schemaVersion: fc.oneof(
          { weight: 10, arbitrary: fc.constant(2 as const) },
          { weight: 1, arbitrary: fc.constantFrom(1 as const, 3 as const, '2' as const) },
        ),
        nextRound: count,
        staleRounds: countSpec({ absurd: true }),
        window: fc.array(
          fc.oneof({ weight: 10, arbitrary: round }, { weight: 1, arbitrary: record({ junk: valueSpec() }) }),
          { maxLength: 5 },
        ),
        nudged: fc.array(
          fc.oneof(
            { weight: 10, arbitrary: record({ text: fc.string({ maxLength: 12 }) }) },
            { weight: 1, arbitrary: fc.constant({ huge: true as const }) },
            { weight: 1, arbitrary: record({ junk: valueSpec() }) },
          ),
          { maxLength: 3 },
        ),
        protoKeys: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }) },
  );
}

function tamperSpec(): fc.Arbitrary<TamperSpec> {
  const count = countSpec({ absurd: true });
  return record({
    request: fc.option(count, { nil: undefined }),
    nextRound: fc.option(count, { nil: undefined }),
    hugeNudged: fc.oneof(
      { weight: 8, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    junkRound: fc.boolean(),
    protoKeys: fc.boolean(),
  });
}

export function storeSpec(): fc.Arbitrary<StoreSpec> {
  const state = stateSpec();
  return fc.oneof(
    { weight: 48, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 40, arbitrary: record({ kind: fc.constant('session' as const), tamper: tamperSpec() }) },
    { weight: 120, arbitrary: record({ kind: fc.constant('working' as const), state }) },
    { weight: 4, arbitrary: fc.constant({ kind: 'load-throws-sync' as const }) },
    { weight: 4, arbitrary: record({ kind: fc.constant('load-rejects' as const), value: valueSpec() }) },
    { weight: 4, arbitrary: record({ kind: fc.constant('save-rejects' as const), state }) },
    // Each costs the whole deadline while the loop ignores its budget: rare.
    { weight: 1, arbitrary: fc.constant({ kind: 'load-never-settles' as const }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('save-never-settles' as const), state }) },
  );
}
