import fc from 'fast-check';
import { record } from './plain-record.js';

/**
 * A hostile value, described as plain data. Generators produce descriptions (which fast-check can print
 * and shrink); `materializeValue` builds the value itself, fresh for every run, because a Proxy with
 * throwing traps cannot be printed and a never-settling thenable must not be shared between runs.
 */
export type ValueSpec =
  | { readonly kind: 'json'; readonly value: fc.JsonValue }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'huge-string'; readonly size: HugeSize }
  | { readonly kind: 'number'; readonly n: number }
  | { readonly kind: 'bigint' }
  | { readonly kind: 'bigint-inside' }
  | { readonly kind: 'symbol' }
  | { readonly kind: 'undefined' }
  | { readonly kind: 'null' }
  | { readonly kind: 'function' }
  | { readonly kind: 'circular' }
  | { readonly kind: 'null-proto'; readonly keys: readonly string[] }
  | { readonly kind: 'proxy'; readonly trap: ProxyTrap; readonly over: 'object' | 'array' }
  | { readonly kind: 'throwing-getters' }
  | { readonly kind: 'then-getter-throws' }
  | { readonly kind: 'thenable-throws' }
  | { readonly kind: 'thenable-never' }
  | { readonly kind: 'deep'; readonly depth: number; readonly shape: 'array' | 'object' }
  | { readonly kind: 'proto-keys'; readonly key: ProtoKey }
  | { readonly kind: 'sparse-array' }
  | { readonly kind: 'error'; readonly which: ErrorShape };

export type HugeSize = 65_536 | 1_048_576 | 10_485_760;
export type ProxyTrap = 'get' | 'all' | 'ownKeys' | 'getPrototypeOf' | 'has' | 'getOwnPropertyDescriptor';
export type ProtoKey = '__proto__' | 'constructor' | 'prototype';
export type ErrorShape = 'plain' | 'type-error' | 'name-getter-throws' | 'message-not-string' | 'proxy-error';

/** The key a hostile `__proto__` payload tries to plant on `Object.prototype`. */
export const POLLUTION_KEY = 'fuzzPolluted';

const hugeStrings = new Map<number, string>();

/** One string per size for the whole process: allocating 10 MB per run would measure the allocator. */
export function hugeString(size: number): string {
  let text = hugeStrings.get(size);
  if (text === undefined) {
    text = 'x'.repeat(size);
    hugeStrings.set(size, text);
  }
  return text;
}

const boom = (what: string) => (): never => {
  throw new Error(`fuzz: ${what} trap`);
};

type OneTrap = Exclude<ProxyTrap, 'all'>;
const ALL_TRAPS: readonly OneTrap[] = ['get', 'ownKeys', 'getPrototypeOf', 'has', 'getOwnPropertyDescriptor'];

/** A Proxy whose `trap` (or every trap) throws. */
export function throwingProxy<T extends object>(target: T, trap: ProxyTrap): T {
  const handler: ProxyHandler<T> = {};
  for (const name of trap === 'all' ? ALL_TRAPS : [trap]) handler[name] = boom(name);
  if (trap === 'all') {
    handler.set = boom('set');
    handler.apply = boom('apply');
  }
  return new Proxy(target, handler);
}

function deepValue(depth: number, shape: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = shape === 'array' ? [value] : { a: value };
  return value;
}

/** An object that carries `key` as an own property, as JSON.parse makes it (the way pollution arrives). */
function protoKeyed(key: ProtoKey): unknown {
  switch (key) {
    case '__proto__':
      return JSON.parse(`{"__proto__":{"${POLLUTION_KEY}":true},"x":1}`);
    case 'constructor':
      return JSON.parse(`{"constructor":{"prototype":{"${POLLUTION_KEY}":true}}}`);
    case 'prototype':
      return JSON.parse(`{"a":{"prototype":{"${POLLUTION_KEY}":true},"__proto__":{"${POLLUTION_KEY}":1}}}`);
    default: {
      const unreachable: never = key;
      return unreachable;
    }
  }
}

function hostileError(which: ErrorShape): unknown {
  switch (which) {
    case 'plain':
      return new Error('fuzz: plain failure apiKey=sk-fuzz-000');
    case 'type-error':
      return new TypeError('fuzz: a defect');
    case 'name-getter-throws': {
      const error = new Error('fuzz: name getter throws');
      Object.defineProperty(error, 'name', { get: boom('name') });
      Object.defineProperty(error, 'message', { get: boom('message') });
      return error;
    }
    case 'message-not-string': {
      const error = new Error('x');
      Object.defineProperty(error, 'message', { value: { nested: 10n } });
      return error;
    }
    case 'proxy-error':
      return throwingProxy(new Error('fuzz: proxy error'), 'all');
    default: {
      const unreachable: never = which;
      return unreachable;
    }
  }
}

/** Builds the value a description stands for; every call returns a fresh one. */
export function materializeValue(spec: ValueSpec): unknown {
  switch (spec.kind) {
    case 'json':
      return spec.value;
    case 'string':
      return spec.text;
    case 'huge-string':
      return hugeString(spec.size);
    case 'number':
      return spec.n;
    case 'bigint':
      return 10n ** 20n;
    case 'bigint-inside':
      return { count: 1n, list: [1, 2n] };
    case 'symbol':
      return Symbol('fuzz');
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'function':
      return () => 'fuzz';
    case 'circular': {
      const node: Record<string, unknown> = { a: 1 };
      node.self = node;
      node.list = [node];
      return node;
    }
    case 'null-proto': {
      const object: Record<string, unknown> = Object.create(null);
      for (const key of spec.keys) object[key] = key;
      return object;
    }
    case 'proxy':
      return throwingProxy(spec.over === 'array' ? [1, 2] : { a: 1 }, spec.trap);
    case 'throwing-getters':
      return Object.defineProperties(
        {},
        {
          toString: { get: boom('toString'), enumerable: true },
          toJSON: { get: boom('toJSON'), enumerable: true },
          valueOf: { get: boom('valueOf'), enumerable: true },
          value: { get: boom('value'), enumerable: true },
        },
      );
    case 'then-getter-throws':
      return Object.defineProperty({}, 'then', { get: boom('then getter'), enumerable: true });
    case 'thenable-throws':
      // biome-ignore lint/suspicious/noThenProperty: a thenable whose then() throws is the hostile value.
      return { then: boom('then()') };
    case 'thenable-never':
      // biome-ignore lint/suspicious/noThenProperty: a thenable that never settles is the hostile value.
      return { then: () => undefined };
    case 'deep':
      return deepValue(spec.depth, spec.shape);
    case 'proto-keys':
      return protoKeyed(spec.key);
    case 'sparse-array': {
      const array: unknown[] = [];
      array[5] = 1;
      array.length = 1_000;
      return array;
    }
    case 'error':
      return hostileError(spec.which);
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

const hugeSize: fc.Arbitrary<HugeSize> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(65_536 as const) },
  { weight: 3, arbitrary: fc.constant(1_048_576 as const) },
  { weight: 1, arbitrary: fc.constant(10_485_760 as const) },
);

const proxyTrap: fc.Arbitrary<ProxyTrap> = fc.constantFrom(
  'get',
  'all',
  'ownKeys',
  'getPrototypeOf',
  'has',
  'getOwnPropertyDescriptor',
);

export const protoKey: fc.Arbitrary<ProtoKey> = fc.constantFrom('__proto__', 'constructor', 'prototype');

const oddNumber = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e308, Number.MAX_SAFE_INTEGER + 2, -1, 0.5),
  fc.double(),
  fc.integer(),
);

/** Any hostile value: plain JSON about a fifth of the time, the rest built to break whatever reads it. */
export function valueSpec(): fc.Arbitrary<ValueSpec> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
    },
    {
      weight: 3,
      arbitrary: record({ kind: fc.constant('string' as const), text: fc.string({ maxLength: 40 }) }),
    },
    { weight: 1, arbitrary: record({ kind: fc.constant('huge-string' as const), size: hugeSize }) },
    { weight: 2, arbitrary: record({ kind: fc.constant('number' as const), n: oddNumber }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'bigint' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'bigint-inside' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'symbol' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'undefined' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'null' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'function' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'circular' as const }) },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('null-proto' as const),
        keys: fc.array(fc.constantFrom('a', 'toString', '__proto__', 'then', 'valueOf'), { maxLength: 3 }),
      }),
    },
    {
      weight: 3,
      arbitrary: record({
        kind: fc.constant('proxy' as const),
        trap: proxyTrap,
        over: fc.constantFrom('object' as const, 'array' as const),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ kind: 'throwing-getters' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'then-getter-throws' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'thenable-throws' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'thenable-never' as const }) },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('deep' as const),
        depth: fc.constantFrom(10, 200, 5_000, 20_000),
        shape: fc.constantFrom('array' as const, 'object' as const),
      }),
    },
    { weight: 2, arbitrary: record({ kind: fc.constant('proto-keys' as const), key: protoKey }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'sparse-array' as const }) },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('error' as const),
        which: fc.constantFrom(
          'plain' as const,
          'type-error' as const,
          'name-getter-throws' as const,
          'message-not-string' as const,
          'proxy-error' as const,
        ),
      }),
    },
  );
}
