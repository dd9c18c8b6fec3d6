import fc from 'fast-check';
import { materializeValue, type ValueSpec, valueSpec } from './hostile-values.js';
import { record } from './plain-record.js';
import { type FuzzToolContext, type FuzzToolSpec, fatalError, transientError } from './targets.js';

/** What one tool does in one run, described as plain data (see `materializeValue`). */
export type BehaviorSpec =
  | { readonly kind: 'return'; readonly value: ValueSpec }
  | { readonly kind: 'resolve'; readonly value: ValueSpec; readonly delayMs: 0 | 1 }
  | { readonly kind: 'throw'; readonly value: ValueSpec }
  | { readonly kind: 'reject'; readonly value: ValueSpec }
  /** Settles only when its signal aborts (timeout or the caller): rejects with the reason, or resolves. */
  | { readonly kind: 'hang-until-abort'; readonly settle: 'reject' | 'resolve' }
  /** Ignores its signal and never settles. */
  | { readonly kind: 'hang-forever' }
  /** Fails transiently `failures` times (the chain retries), then returns `value`. */
  | { readonly kind: 'transient'; readonly failures: number; readonly value: ValueSpec }
  | { readonly kind: 'fatal' };

/** The tools every run sees (one registry for the whole campaign: defining tools per run costs ms). */
export const BEHAVING_TOOLS = ['read_a', 'read_b', 'read_c', 'write_a', 'write_b', 'contract'] as const;
export type BehavingTool = (typeof BEHAVING_TOOLS)[number];
export const TOOL_NAMES = [
  ...BEHAVING_TOOLS,
  'strict_add',
  'async_schema',
  'throwing_schema',
  'naive_merge',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export type Behaviors = Readonly<Partial<Record<BehavingTool, BehaviorSpec>>>;

/** The caller data of one run: the tools read their behaviour here and record what they ran. */
export interface RunData {
  readonly behaviors: Behaviors;
  /** Tool call ids whose tool started (at least one attempt). */
  readonly executed: Set<string>;
}

function hangUntilAbort(signal: AbortSignal, settle: 'reject' | 'resolve'): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const done = () => (settle === 'reject' ? reject(signal.reason) : resolve('late'));
    if (signal.aborted) done();
    else signal.addEventListener('abort', done, { once: true });
  });
}

function behave(spec: BehaviorSpec | undefined, context: FuzzToolContext): unknown {
  if (spec === undefined) return { ok: true };
  switch (spec.kind) {
    case 'return':
      return materializeValue(spec.value);
    case 'resolve':
      return spec.delayMs === 0
        ? Promise.resolve(materializeValue(spec.value))
        : new Promise((resolve) => setTimeout(() => resolve(materializeValue(spec.value)), spec.delayMs));
    case 'throw':
      throw materializeValue(spec.value);
    case 'reject':
      return Promise.reject(materializeValue(spec.value));
    case 'hang-until-abort':
      return hangUntilAbort(context.signal, spec.settle);
    case 'hang-forever':
      return new Promise(() => undefined);
    case 'transient':
      if (context.attempt <= spec.failures) throw transientError('fuzz: try again');
      return materializeValue(spec.value);
    case 'fatal':
      throw fatalError('fuzz: a defect in the tool');
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

function behaving(
  name: BehavingTool,
  effect: 'read' | 'write',
  extra: Partial<FuzzToolSpec> = {},
): FuzzToolSpec {
  return {
    name,
    effect,
    ...extra,
    execute: (_args, context) => {
      const data = context.data as RunData;
      data.executed.add(context.toolCallId);
      return behave(data.behaviors[name], context);
    },
  };
}

function recorded(context: FuzzToolContext): void {
  (context.data as RunData).executed.add(context.toolCallId);
}

/** A naive deep merge, as careless tool code writes it: how `__proto__` keys turn into pollution. */
function naiveMerge(target: Record<string, unknown>, source: unknown): Record<string, unknown> {
  if (typeof source !== 'object' || source === null) return target;
  for (const key in source) {
    const value = (source as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) {
      target[key] ??= {};
      naiveMerge(target[key] as Record<string, unknown>, value);
    } else target[key] = value;
  }
  return target;
}

const addSchema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

/** A Standard Schema that validates asynchronously (the chain's slow preparation path). */
/** What the fuzz Standard Schemas show the model (defineTool refuses a Standard Schema without a converter). */
const jsonSchema = { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) };

const asyncSchema = {
  '~standard': {
    version: 1,
    vendor: 'fuzz',
    jsonSchema,
    validate: async (value: unknown) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value }
        : { issues: [{ message: 'expected an object' }] },
  },
};

/** A Standard Schema whose validator is broken. */
const throwingSchema = {
  '~standard': {
    version: 1,
    vendor: 'fuzz',
    jsonSchema,
    validate: (value: unknown) => {
      if (typeof value === 'object' && value !== null && 'ok' in value) return { value };
      throw new Error('fuzz: the validator broke');
    },
  },
};

export const FUZZ_TOOLS: readonly FuzzToolSpec[] = [
  behaving('read_a', 'read'),
  behaving('read_b', 'read'),
  behaving('read_c', 'read'),
  behaving('write_a', 'write'),
  behaving('write_b', 'write'),
  behaving('contract', 'read', {
    output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  }),
  {
    name: 'strict_add',
    effect: 'read',
    input: addSchema,
    execute: (args, context) => {
      recorded(context);
      const { a, b } = args as { a: number; b: number };
      return a + b;
    },
  },
  {
    name: 'async_schema',
    effect: 'read',
    input: asyncSchema,
    execute: (args, context) => {
      recorded(context);
      return { echoed: args };
    },
  },
  {
    name: 'throwing_schema',
    effect: 'write',
    input: throwingSchema,
    execute: (_args, context) => {
      recorded(context);
      return 'written';
    },
  },
  {
    name: 'naive_merge',
    effect: 'read',
    execute: (args, context) => {
      recorded(context);
      return naiveMerge({}, args);
    },
  },
];

export function behaviorSpec(): fc.Arbitrary<BehaviorSpec> {
  const value = valueSpec();
  return fc.oneof(
    { weight: 10, arbitrary: record({ kind: fc.constant('return' as const), value }) },
    {
      weight: 4,
      arbitrary: record({
        kind: fc.constant('resolve' as const),
        value,
        delayMs: fc.constantFrom(0 as const, 1 as const),
      }),
    },
    { weight: 4, arbitrary: record({ kind: fc.constant('throw' as const), value }) },
    { weight: 3, arbitrary: record({ kind: fc.constant('reject' as const), value }) },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('hang-until-abort' as const),
        settle: fc.constantFrom('reject' as const, 'resolve' as const),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'hang-forever' as const }) },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('transient' as const),
        failures: fc.integer({ min: 1, max: 3 }),
        value,
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'fatal' as const }) },
  );
}

/** Behaviours for some of the tools (the others answer `{ ok: true }`). */
export function behaviorsSpec(): fc.Arbitrary<Behaviors> {
  const behavior = behaviorSpec();
  return record(
    {
      read_a: behavior,
      read_b: behavior,
      read_c: behavior,
      write_a: behavior,
      write_b: behavior,
      contract: behavior,
    },
    { requiredKeys: [] },
  );
}
