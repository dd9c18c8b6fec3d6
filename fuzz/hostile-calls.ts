import fc from 'fast-check';
import { TOOL_NAMES, type ToolName } from './hostile-tools.js';
import {
  hugeString,
  materializeValue,
  POLLUTION_KEY,
  type ProtoKey,
  protoKey,
  throwingProxy,
  type ValueSpec,
  valueSpec,
} from './hostile-values.js';
import { record } from './plain-record.js';

/** A call's id as the model sent it. */
export type IdSpec =
  | { readonly kind: 'fresh' }
  /** The id of an earlier call of the same response (or a fixed one for the first). */
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'empty' }
  /** A string the chain might generate itself (`tw_1_1`) or anything else. */
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'value'; readonly value: ValueSpec };

export type NameSpec =
  | { readonly kind: 'tool'; readonly name: ToolName }
  | { readonly kind: 'unknown'; readonly text: string }
  | { readonly kind: 'value'; readonly value: ValueSpec };

export type ArgsSpec =
  /** Arguments the tool accepts (`{ a, b }` for `strict_add`, an object otherwise). */
  | { readonly kind: 'valid' }
  | { readonly kind: 'json'; readonly value: fc.JsonValue }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'deep'; readonly depth: number; readonly shape: 'array' | 'object' }
  | { readonly kind: 'proto'; readonly key: ProtoKey; readonly nested: boolean }
  | { readonly kind: 'huge'; readonly size: number }
  | { readonly kind: 'missing' }
  /** Not a string at all: an object, a BigInt, a cycle, a Proxy, ... */
  | { readonly kind: 'value'; readonly value: ValueSpec };

export type CallShape =
  | 'plain'
  | 'null-proto'
  | 'frozen'
  | 'extra-keys'
  | 'id-getter-throws'
  | 'name-getter-throws'
  | 'arguments-getter-throws'
  | 'proxy-get-throws';

export type CallSpec =
  | {
      readonly kind: 'call';
      readonly id: IdSpec;
      readonly name: NameSpec;
      readonly args: ArgsSpec;
      readonly shape: CallShape;
    }
  /** Not a call object: null, a number, a string, a Proxy, ... */
  | { readonly kind: 'raw'; readonly value: ValueSpec };

export type ToolCallsSpec =
  | { readonly kind: 'array'; readonly calls: readonly CallSpec[] }
  /** Many copies of one call: the per-turn limits at work. */
  | { readonly kind: 'many'; readonly count: number; readonly call: CallSpec }
  /** A Proxy over the array whose trap throws (reading an index, its length, or every trap). */
  | { readonly kind: 'proxy'; readonly calls: readonly CallSpec[]; readonly trap: 'index' | 'length' | 'all' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'value'; readonly value: ValueSpec };

/** The assistant message of one model output. */
export type AssistantSpec =
  | {
      readonly kind: 'assistant';
      readonly content:
        | { readonly kind: 'text'; readonly text: string }
        | { readonly kind: 'value'; readonly value: ValueSpec };
      readonly toolCalls: ToolCallsSpec;
      readonly role: 'assistant' | 'missing' | 'user';
    }
  | { readonly kind: 'garbage'; readonly value: ValueSpec };

const throwingGetter = (field: string) => ({
  get: () => {
    throw new Error(`fuzz: ${field} getter`);
  },
  enumerable: true,
});

function materializeId(spec: IdSpec, index: number, previous: unknown): unknown {
  switch (spec.kind) {
    case 'fresh':
      return `call_${index}`;
    case 'duplicate':
      return previous ?? 'call_dup';
    case 'missing':
      return undefined;
    case 'empty':
      return '';
    case 'text':
      return spec.text;
    case 'value':
      return materializeValue(spec.value);
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

function materializeName(spec: NameSpec): unknown {
  switch (spec.kind) {
    case 'tool':
      return spec.name;
    case 'unknown':
      return spec.text;
    case 'value':
      return materializeValue(spec.value);
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

function protoArguments(key: ProtoKey, nested: boolean): string {
  const payload =
    key === 'constructor'
      ? `{"constructor":{"prototype":{"${POLLUTION_KEY}":true}}}`
      : `{"${key}":{"${POLLUTION_KEY}":true}}`;
  return nested ? `{"settings":{"deeper":${payload}}}` : payload;
}

function materializeArgs(spec: ArgsSpec, name: NameSpec): unknown {
  switch (spec.kind) {
    case 'valid':
      return name.kind === 'tool' && name.name === 'strict_add' ? '{"a":1,"b":2}' : '{"ok":true}';
    case 'json':
      return JSON.stringify(spec.value);
    case 'text':
      return spec.text;
    case 'deep':
      return spec.shape === 'array'
        ? `${'['.repeat(spec.depth)}${']'.repeat(spec.depth)}`
        : `${'{"a":'.repeat(spec.depth)}1${'}'.repeat(spec.depth)}`;
    case 'proto':
      return protoArguments(spec.key, spec.nested);
    case 'huge':
      return `{"text":"${hugeString(spec.size)}"}`;
    case 'missing':
      return undefined;
    case 'value':
      return materializeValue(spec.value);
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

function materializeCall(spec: CallSpec, index: number, previousId: unknown): unknown {
  if (spec.kind === 'raw') return materializeValue(spec.value);
  const id = materializeId(spec.id, index, previousId);
  const name = materializeName(spec.name);
  const args = materializeArgs(spec.args, spec.name);
  const fields: Record<string, unknown> = {};
  if (spec.id.kind !== 'missing') fields.id = id;
  fields.name = name;
  if (spec.args.kind !== 'missing') fields.arguments = args;
  switch (spec.shape) {
    case 'plain':
      return fields;
    case 'null-proto':
      return Object.assign(Object.create(null), fields);
    case 'frozen':
      return Object.freeze(fields);
    case 'extra-keys':
      return Object.assign(JSON.parse(`{"__proto__":{"${POLLUTION_KEY}":true},"type":"function"}`), fields);
    case 'id-getter-throws':
      return Object.defineProperty(fields, 'id', throwingGetter('id'));
    case 'name-getter-throws':
      return Object.defineProperty(fields, 'name', throwingGetter('name'));
    case 'arguments-getter-throws':
      return Object.defineProperty(fields, 'arguments', throwingGetter('arguments'));
    case 'proxy-get-throws':
      return throwingProxy(fields, 'get');
    default: {
      const unreachable: never = spec.shape;
      return unreachable;
    }
  }
}

function materializeCallList(calls: readonly CallSpec[]): unknown[] {
  const list: unknown[] = [];
  let previousId: unknown;
  for (let index = 0; index < calls.length; index++) {
    const spec = calls[index] as CallSpec;
    const call = materializeCall(spec, index, previousId);
    if (spec.kind === 'call' && spec.id.kind !== 'value')
      previousId = materializeId(spec.id, index, previousId);
    list.push(call);
  }
  return list;
}

function materializeToolCalls(spec: ToolCallsSpec): unknown {
  switch (spec.kind) {
    case 'array':
      return materializeCallList(spec.calls);
    case 'many':
      return materializeCallList(Array.from({ length: spec.count }, () => spec.call));
    case 'proxy': {
      const list = materializeCallList(spec.calls);
      if (spec.trap === 'all') return throwingProxy(list, 'all');
      return new Proxy(list, {
        get(target, key, receiver) {
          const isIndex = typeof key === 'string' && /^\d+$/.test(key);
          if ((spec.trap === 'index' && isIndex) || (spec.trap === 'length' && key === 'length')) {
            throw new Error(`fuzz: toolCalls ${String(key)} trap`);
          }
          return Reflect.get(target, key, receiver);
        },
      });
    }
    case 'missing':
      return undefined;
    case 'value':
      return materializeValue(spec.value);
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

/** Builds the assistant message (or the garbage standing in for it); fresh on every call. */
export function materializeAssistant(spec: AssistantSpec): unknown {
  if (spec.kind === 'garbage') return materializeValue(spec.value);
  const message: Record<string, unknown> = {};
  if (spec.role !== 'missing') message.role = spec.role;
  message.content = spec.content.kind === 'text' ? spec.content.text : materializeValue(spec.content.value);
  if (spec.toolCalls.kind !== 'missing') message.toolCalls = materializeToolCalls(spec.toolCalls);
  return message;
}

const toolName = fc.constantFrom(...TOOL_NAMES);

function idSpec(hostile: boolean): fc.Arbitrary<IdSpec> {
  if (!hostile) return fc.constant({ kind: 'fresh' as const });
  return fc.oneof(
    { weight: 20, arbitrary: fc.constant({ kind: 'fresh' as const }) },
    { weight: 3, arbitrary: fc.constant({ kind: 'duplicate' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'missing' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('text' as const),
        text: fc.oneof(
          fc.constantFrom('tw_1_1', 'tw_1_2', 'call_1', ' ', '__proto__'),
          fc.string({ maxLength: 12 }),
        ),
      }),
    },
    { weight: 2, arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }) },
  );
}

function nameSpec(hostile: boolean): fc.Arbitrary<NameSpec> {
  const arbitraries: fc.WeightedArbitrary<NameSpec>[] = [
    { weight: 20, arbitrary: record({ kind: fc.constant('tool' as const), name: toolName }) },
    {
      weight: 3,
      arbitrary: record({
        kind: fc.constant('unknown' as const),
        text: fc.oneof(
          fc.constantFrom('', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'READ_A', 'read_a '),
          fc.string({ maxLength: 30 }),
          fc.string({ minLength: 100, maxLength: 300 }),
        ),
      }),
    },
  ];
  if (hostile)
    arbitraries.push({
      weight: 2,
      arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }),
    });
  return fc.oneof(...arbitraries);
}

function argsSpec(hostile: boolean): fc.Arbitrary<ArgsSpec> {
  const arbitraries: fc.WeightedArbitrary<ArgsSpec>[] = [
    { weight: 12, arbitrary: fc.constant({ kind: 'valid' as const }) },
    {
      weight: 6,
      arbitrary: record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }) }),
    },
    {
      weight: 3,
      arbitrary: record({
        kind: fc.constant('text' as const),
        text: fc.oneof(
          fc.constantFrom(
            '',
            '{',
            '{"a":',
            'null',
            '[]',
            '{"a":1}}',
            'NaN',
            '{"a":1n}',
            '\u0000',
            '{"a":"\ud800"}',
          ),
          fc.string({ maxLength: 60 }),
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('deep' as const),
        depth: fc.constantFrom(20, 70, 1_000, 100_000),
        shape: fc.constantFrom('array' as const, 'object' as const),
      }),
    },
    {
      weight: 3,
      arbitrary: record({ kind: fc.constant('proto' as const), key: protoKey, nested: fc.boolean() }),
    },
    {
      weight: 1,
      arbitrary: record({ kind: fc.constant('huge' as const), size: fc.constantFrom(65_536, 1_048_576) }),
    },
  ];
  if (hostile) {
    arbitraries.push(
      { weight: 1, arbitrary: fc.constant({ kind: 'missing' as const }) },
      { weight: 3, arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }) },
    );
  }
  return fc.oneof(...arbitraries);
}

const callShape: fc.Arbitrary<CallShape> = fc.oneof(
  { weight: 24, arbitrary: fc.constant('plain' as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'null-proto' as const,
      'frozen' as const,
      'extra-keys' as const,
      'id-getter-throws' as const,
      'name-getter-throws' as const,
      'arguments-getter-throws' as const,
      'proxy-get-throws' as const,
    ),
  },
);

/**
 * One call. Hostile: any field may be a non-string, missing, duplicated, behind a throwing getter or
 * Proxy, or the call no object at all. Not hostile: string fields only (the arguments may still be invalid,
 * huge, deep or carry `__proto__`), so the limits and the tools' behaviours are reached.
 */
export function callSpec(hostile: boolean): fc.Arbitrary<CallSpec> {
  const call = record({
    kind: fc.constant('call' as const),
    id: idSpec(hostile),
    name: nameSpec(hostile),
    args: argsSpec(hostile),
    shape: hostile ? callShape : fc.constant('plain' as const),
  });
  if (!hostile) return call;
  return fc.oneof(
    { weight: 30, arbitrary: call },
    { weight: 1, arbitrary: record({ kind: fc.constant('raw' as const), value: valueSpec() }) },
  );
}

function toolCallsSpec(): fc.Arbitrary<ToolCallsSpec> {
  const benign = callSpec(false);
  const hostile = callSpec(true);
  return fc.oneof(
    {
      weight: 15,
      arbitrary: record({
        kind: fc.constant('array' as const),
        calls: fc.array(benign, { minLength: 1, maxLength: 8 }),
      }),
    },
    {
      weight: 15,
      arbitrary: record({
        kind: fc.constant('array' as const),
        calls: fc.array(hostile, { minLength: 1, maxLength: 8 }),
      }),
    },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('many' as const),
        count: fc.integer({ min: 10, max: 60 }),
        call: fc.oneof(benign, hostile),
      }),
    },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('proxy' as const),
        calls: fc.array(benign, { minLength: 1, maxLength: 3 }),
        trap: fc.constantFrom('index' as const, 'length' as const, 'all' as const),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'missing' as const }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }) },
  );
}

/** A model output that asks for tools (mostly), with hostile fields here and there. */
export function assistantSpec(): fc.Arbitrary<AssistantSpec> {
  return fc.oneof(
    {
      weight: 40,
      arbitrary: record({
        kind: fc.constant('assistant' as const),
        content: fc.oneof(
          {
            weight: 10,
            arbitrary: record({ kind: fc.constant('text' as const), text: fc.string({ maxLength: 20 }) }),
          },
          { weight: 1, arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }) },
        ),
        toolCalls: toolCallsSpec(),
        role: fc.oneof(
          { weight: 30, arbitrary: fc.constant('assistant' as const) },
          { weight: 1, arbitrary: fc.constantFrom('missing' as const, 'user' as const) },
        ),
      }),
    },
    { weight: 1, arbitrary: record({ kind: fc.constant('garbage' as const), value: valueSpec() }) },
  );
}
