import fc from 'fast-check';
import {
  hugeString,
  materializeValue,
  POLLUTION_KEY,
  type ProtoKey,
  type ProxyTrap,
  protoKey,
  throwingProxy,
  type ValueSpec,
  valueSpec,
} from './hostile-values.js';
import { record } from './plain-record.js';

/**
 * Saved run states and proxy configs as plain data: a valid document (the state of a real paused run, the
 * README's full proxy config) and the changes made to it. `at` picks a place in the document (an index into
 * its values, taken modulo their count), so a case stays valid whatever the document holds.
 */
export type Mutation =
  /** The value there becomes a hostile one (a wrong type at that field, mostly). */
  | { readonly kind: 'set'; readonly at: number; readonly value: ValueSpec }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'unknown-key'; readonly at: number; readonly key: string }
  /** An own prototype key on the object there (as JSON.parse makes it), carrying a pollution payload. */
  | { readonly kind: 'proto-key'; readonly at: number; readonly key: ProtoKey }
  /** A number near 2^53 (or past it) in place of the value there. */
  | { readonly kind: 'counter'; readonly at: number; readonly n: number }
  /** On an array of the document: a hole, a `length` of 2^32 - 1, or a value JSON cannot carry. */
  | { readonly kind: 'hole'; readonly at: number }
  | { readonly kind: 'huge-length'; readonly at: number }
  | { readonly kind: 'in-array'; readonly at: number; readonly value: Unjsonable }
  | { readonly kind: 'huge-array'; readonly at: number; readonly size: number }
  | { readonly kind: 'deep'; readonly at: number; readonly depth: number }
  | { readonly kind: 'huge-string'; readonly at: number; readonly size: number }
  /** Object form only: the field's getter throws, or the object there becomes a Proxy whose trap throws. */
  | { readonly kind: 'throwing-getter'; readonly at: number }
  | { readonly kind: 'proxy'; readonly at: number; readonly trap: ProxyTrap };

export type Unjsonable = 'bigint' | 'nan' | 'infinity' | 'function' | 'symbol' | 'undefined';

/** The decision a resume gives a waiting call (`none`: it has none). */
export type DecisionSpec = 'run' | 'deny' | 'none';

export type StateCase =
  /** The paused run's state, every object's keys in another order: it restores as the original, and resumes. */
  | {
      readonly kind: 'reorder';
      readonly seed: number;
      readonly form: 'object' | 'json';
      /** One per waiting call, in order. */
      readonly decisions: readonly DecisionSpec[];
      /** A decision for a call that does not wait (the resume is refused). */
      readonly strayDecision: boolean;
    }
  /** The paused run's state, mutated: restored as an object and as JSON text. */
  | { readonly kind: 'state'; readonly mutations: readonly Mutation[] }
  /** The README's proxy config, mutated (its text cut short at `cut`, when set). */
  | { readonly kind: 'config'; readonly mutations: readonly Mutation[]; readonly cut: number | undefined };

const UNJSONABLE: Record<Unjsonable, () => unknown> = {
  bigint: () => 2n ** 64n,
  nan: () => Number.NaN,
  infinity: () => Number.POSITIVE_INFINITY,
  function: () => () => 'fuzz',
  symbol: () => Symbol('fuzz'),
  undefined: () => undefined,
};

type Path = readonly (string | number)[];
type Container = Record<string | number, unknown>;

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** Arrays longer than this are places, but their items are not (a huge array would take seconds to walk). */
const MAX_WALKED_ITEMS = 100;

/**
 * Every place in a document, the root first. An earlier mutation may have made it hostile: a cycle is
 * walked once, and what cannot be read (a throwing getter, a Proxy) is a place with nothing under it.
 */
function pathsOf(root: unknown): Path[] {
  const into: Path[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, path: Path, depth: number) => {
    into.push(path);
    if (!isContainer(value) || seen.has(value) || depth > 100) return;
    seen.add(value);
    try {
      if (Array.isArray(value) && value.length > MAX_WALKED_ITEMS) return;
      for (const key of Object.keys(value)) walk(value[key], [...path, key], depth + 1);
    } catch {
      // Unreadable: a place without places under it.
    }
  };
  walk(root, [], 0);
  return into;
}

function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const key of path) value = (value as Container)[key];
  return value;
}

const own = (value: unknown) => ({ value, enumerable: true, writable: true, configurable: true });

/** A document being mutated: its root in a box, so the root itself can be replaced. */
class Document {
  readonly box: Container;
  jsonCarries = true;
  constructor(root: unknown) {
    this.box = { root };
  }
  get root(): unknown {
    return this.box.root;
  }
  /** The place `at` points to, as a container and a key. */
  place(at: number): { readonly container: Container; readonly key: string | number } {
    const paths = pathsOf(this.root);
    const path = [...(paths[at % paths.length] ?? [])];
    const key = path.pop();
    return key === undefined
      ? { container: this.box, key: 'root' }
      : { container: valueAt(this.root, path) as Container, key };
  }
  /** The object or array at `at` (or holding it). */
  containerAt(at: number): Container {
    const { container, key } = this.place(at);
    const value = container[key];
    return isContainer(value) ? value : isContainer(container) && container !== this.box ? container : {};
  }
  arrayAt(at: number): unknown[] | undefined {
    const arrays = pathsOf(this.root)
      .map((path) => valueAt(this.root, path))
      .filter(Array.isArray);
    return arrays[at % Math.max(1, arrays.length)];
  }
  set(at: number, value: unknown): void {
    const { container, key } = this.place(at);
    Object.defineProperty(container, key, own(value));
  }
}

function deep(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

function apply(doc: Document, mutation: Mutation): void {
  switch (mutation.kind) {
    case 'set':
      doc.set(mutation.at, materializeValue(mutation.value));
      doc.jsonCarries &&= !['proxy', 'throwing-getters', 'then-getter-throws'].includes(mutation.value.kind);
      return;
    case 'delete': {
      const { container, key } = doc.place(mutation.at);
      if (Array.isArray(container)) container.splice(Number(key), 1);
      else delete container[key];
      return;
    }
    case 'unknown-key':
      Object.defineProperty(doc.containerAt(mutation.at), mutation.key, own('fuzz'));
      return;
    case 'proto-key':
      Object.defineProperty(doc.containerAt(mutation.at), mutation.key, own({ [POLLUTION_KEY]: true }));
      return;
    case 'counter':
      doc.set(mutation.at, mutation.n);
      return;
    case 'hole': {
      const array = doc.arrayAt(mutation.at);
      if (array !== undefined) array[array.length + 2] = 'after a hole';
      return;
    }
    case 'huge-length': {
      const array = doc.arrayAt(mutation.at);
      if (array !== undefined) array.length = 2 ** 32 - 1;
      // JSON text of it would be 4 billion nulls: the object form only.
      doc.jsonCarries = false;
      return;
    }
    case 'in-array':
      doc.arrayAt(mutation.at)?.push(UNJSONABLE[mutation.value]());
      return;
    case 'huge-array':
      doc.set(mutation.at, new Array<string>(mutation.size).fill('x'));
      return;
    case 'deep':
      doc.set(mutation.at, deep(mutation.depth));
      return;
    case 'huge-string':
      doc.set(mutation.at, hugeString(mutation.size));
      return;
    case 'throwing-getter': {
      const { container, key } = doc.place(mutation.at);
      // The root is a value, not a field: there is no getter to put on it.
      if (container === doc.box) return;
      Object.defineProperty(container, key, {
        get: () => {
          throw new Error('fuzz: getter');
        },
        enumerable: true,
        configurable: true,
      });
      doc.jsonCarries = false;
      return;
    }
    case 'proxy': {
      const { container, key } = doc.place(mutation.at);
      const value = container[key];
      if (isContainer(value)) container[key] = throwingProxy(value, mutation.trap);
      doc.jsonCarries = false;
      return;
    }
    default: {
      const unreachable: never = mutation;
      throw new Error(`fuzz: unknown mutation ${String(unreachable)}`);
    }
  }
}

/** A fresh mutated document: the value, and its JSON text where JSON can carry it. */
export function materializeDocument(
  text: string,
  mutations: readonly Mutation[],
): { readonly value: unknown; readonly text: string | undefined } {
  const doc = new Document(JSON.parse(text));
  for (const mutation of mutations) {
    try {
      apply(doc, mutation);
    } catch {
      // The place was made unreadable by an earlier mutation: this one is not applied.
    }
  }
  let json: string | undefined;
  if (doc.jsonCarries) {
    try {
      json = JSON.stringify(doc.root);
    } catch {
      // BigInt, a cycle, nesting past the stack: not JSON text.
    }
  }
  return { value: doc.root, text: json };
}

/** A PRNG for key orders (mulberry32): the same seed, the same order. */
function shuffler(seed: number): <T>(items: T[]) => T[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return (items) => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [items[i], items[j]] = [items[j] as (typeof items)[number], items[i] as (typeof items)[number]];
    }
    return items;
  };
}

/** The same JSON data, every object's keys in an order of the seed's (arrays keep theirs: order is data). */
export function reorderKeys(value: unknown, seed: number): unknown {
  const shuffle = shuffler(seed);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isContainer(node)) return node;
    const out: Container = {};
    for (const key of shuffle(Object.keys(node))) Object.defineProperty(out, key, own(walk(node[key])));
    return out;
  };
  return walk(value);
}

const at = fc.nat({ max: 10_000 });

export function mutation(): fc.Arbitrary<Mutation> {
  return fc.oneof(
    { weight: 6, arbitrary: record({ kind: fc.constant('set' as const), at, value: valueSpec() }) },
    { weight: 2, arbitrary: record({ kind: fc.constant('delete' as const), at }) },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('unknown-key' as const),
        at,
        key: fc.constantFrom('extra', 'schemaVersion', 'toString', 'then', ''),
      }),
    },
    { weight: 2, arbitrary: record({ kind: fc.constant('proto-key' as const), at, key: protoKey }) },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('counter' as const),
        at,
        n: fc.constantFrom(2 ** 53 - 2, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -1, 0, 1.5, 1e308, -0),
      }),
    },
    { weight: 1, arbitrary: record({ kind: fc.constant('hole' as const), at }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('huge-length' as const), at }) },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('in-array' as const),
        at,
        value: fc.constantFrom<Unjsonable>('bigint', 'nan', 'infinity', 'function', 'symbol', 'undefined'),
      }),
    },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('huge-array' as const),
        at,
        size: fc.constantFrom(1_000, 100_000, 1_200_000),
      }),
    },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('deep' as const),
        at,
        depth: fc.constantFrom(65, 1_000, 50_000),
      }),
    },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('huge-string' as const),
        at,
        size: fc.constantFrom(1_048_576, 10_485_760),
      }),
    },
    { weight: 1, arbitrary: record({ kind: fc.constant('throwing-getter' as const), at }) },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('proxy' as const),
        at,
        trap: fc.constantFrom<ProxyTrap>(
          'get',
          'all',
          'ownKeys',
          'getPrototypeOf',
          'getOwnPropertyDescriptor',
        ),
      }),
    },
  );
}

const mutations = fc.array(mutation(), { minLength: 1, maxLength: 3 });

export function stateCase(): fc.Arbitrary<StateCase> {
  return fc.oneof(
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('reorder' as const),
        seed: fc.integer(),
        form: fc.constantFrom('object' as const, 'json' as const),
        decisions: fc.array(fc.constantFrom<DecisionSpec>('run', 'deny', 'none'), {
          minLength: 2,
          maxLength: 2,
        }),
        strayDecision: fc.boolean(),
      }),
    },
    { weight: 5, arbitrary: record({ kind: fc.constant('state' as const), mutations }) },
    {
      weight: 3,
      arbitrary: record({
        kind: fc.constant('config' as const),
        mutations,
        cut: fc.option(fc.nat({ max: 2_000 }), { nil: undefined, freq: 8 }),
      }),
    },
  );
}
