import fc from 'fast-check';
import { type ValueSpec, valueSpec } from './hostile-values.js';
import { record } from './plain-record.js';

/**
 * An AI SDK model's answer as plain data (see `ai-sdk-parts.ts` for the parts it stands for). A `paired`
 * case is one logical answer, given whole (`doGenerate`'s content parts) and streamed (`doStream`'s parts):
 * both paths must come to the same response. A `separate` case is a random content array and a random
 * stream, each judged on its own.
 */

/** A call id as a part carries it: a few usable ones (so calls share ids), and unusable ones. */
export type PartId = 'c1' | 'c2' | 'c3' | '' | 7 | undefined;
export const TOOL_NAMES = ['echo', 'peek', 'nope'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** The parts of a call the provider runs that say so, in each form of the answer. */
export type GenerateCarrier = 'call' | 'result' | 'approval';
export type StreamCarrier = 'start' | 'delta' | GenerateCarrier;
export interface ProviderSpec {
  readonly generate: readonly GenerateCarrier[];
  readonly stream: readonly StreamCarrier[];
}

/** `json`: `{"n":k}` (k tells the call apart); `broken`: cut JSON text; `object`, `null`: not text. */
export type InputKind = 'json' | 'broken' | 'object' | 'null';

/** A part that neither path can use. */
export type JunkSpec =
  | { readonly kind: 'value'; readonly value: ValueSpec }
  | { readonly kind: 'type'; readonly type: string }
  /** A text part whose text is this value (mostly not text). */
  | { readonly kind: 'bad-text'; readonly value: ValueSpec }
  /** A part whose `type` getter throws, or a tool part whose id getter throws. */
  | { readonly kind: 'throwing'; readonly field: 'type' | 'toolCallId' };

export type AnswerPart =
  | { readonly kind: 'text'; readonly text: string; readonly chunks: number }
  | {
      readonly kind: 'call';
      readonly id: PartId;
      readonly name: ToolName;
      readonly input: InputKind;
      /** How the stream sends it: the tool-call part alone, or after its deltas (with or without a start). */
      readonly style: 'whole' | 'deltas' | 'deltas-no-start';
      readonly chunks: number;
      readonly provider: ProviderSpec | undefined;
      /** Whether its tool-result (or approval request) comes before its tool-call part. */
      readonly resultFirst: boolean;
    }
  /** A tool-result or approval request of its own, for an id any call may have. */
  | { readonly kind: 'result'; readonly id: PartId; readonly approval: boolean }
  | { readonly kind: 'junk'; readonly junk: JunkSpec };

/** One part of a random answer: a part of a known or unknown type with hostile fields, or a hostile value. */
export type RawPartSpec =
  | {
      readonly kind: 'part';
      readonly type: string;
      /** As `id` and as `toolCallId`. */
      readonly id: PartId;
      readonly name: ToolName;
      /** As `input`, `delta` and `text`: a marked JSON text (`{"n":k}`) or a hostile value. */
      readonly payload: { readonly kind: 'marker' } | { readonly kind: 'value'; readonly value: ValueSpec };
      readonly providerExecuted: true | false | undefined | 'true' | 1;
    }
  | { readonly kind: 'hostile'; readonly value: ValueSpec };

export type AiSdkCase = {
  /** Which path the loop takes (`none`: the two paths are only compared). */
  readonly loop: 'none' | 'generate' | 'stream';
} & (
  | { readonly kind: 'paired'; readonly answer: readonly AnswerPart[] }
  | {
      readonly kind: 'separate';
      /** The content array, or (rarely) a hostile value in its place. */
      readonly content: readonly RawPartSpec[] | { readonly kind: 'value'; readonly value: ValueSpec };
      readonly stream: readonly RawPartSpec[];
      /** How the stream ends after its parts. */
      readonly end: 'finish' | 'none' | 'error';
    }
);

const partId: fc.Arbitrary<PartId> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<PartId>('c1', 'c2', 'c3') },
  { weight: 1, arbitrary: fc.constantFrom<PartId>('', 7, undefined) },
);
const toolName = fc.constantFrom<ToolName>(...TOOL_NAMES);

function providerSpec(): fc.Arbitrary<ProviderSpec> {
  return record({
    generate: fc.subarray<GenerateCarrier>(['call', 'result', 'approval'], { minLength: 1 }),
    stream: fc.subarray<StreamCarrier>(['start', 'delta', 'call', 'result', 'approval'], { minLength: 1 }),
  });
}

const JUNK_TYPES = ['reasoning', 'source', 'file', 'raw', 'tool-input-end', 'hologram', '__proto__'];

function junkSpec(): fc.Arbitrary<JunkSpec> {
  return fc.oneof(
    record({ kind: fc.constant('value' as const), value: valueSpec() }),
    record({ kind: fc.constant('type' as const), type: fc.constantFrom(...JUNK_TYPES) }),
    record({ kind: fc.constant('bad-text' as const), value: valueSpec() }),
    record({
      kind: fc.constant('throwing' as const),
      field: fc.constantFrom('type' as const, 'toolCallId' as const),
    }),
  );
}

function answerPart(): fc.Arbitrary<AnswerPart> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: record({
        kind: fc.constant('text' as const),
        text: fc.string({ maxLength: 12 }),
        chunks: fc.integer({ min: 1, max: 3 }),
      }),
    },
    {
      weight: 6,
      arbitrary: record({
        kind: fc.constant('call' as const),
        id: partId,
        name: toolName,
        input: fc.constantFrom<InputKind>('json', 'json', 'json', 'broken', 'object', 'null'),
        style: fc.constantFrom('whole' as const, 'deltas' as const, 'deltas-no-start' as const),
        chunks: fc.integer({ min: 1, max: 3 }),
        provider: fc.option(providerSpec(), { nil: undefined, freq: 2 }),
        resultFirst: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: record({ kind: fc.constant('result' as const), id: partId, approval: fc.boolean() }),
    },
    { weight: 2, arbitrary: record({ kind: fc.constant('junk' as const), junk: junkSpec() }) },
  );
}

const RAW_TYPES = [
  'text',
  'text-delta',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-end',
  'tool-call',
  'tool-call',
  'tool-call',
  'tool-result',
  'tool-approval-request',
  'reasoning-delta',
  'finish',
  'error',
  'stream-start',
  'hologram',
];

function rawPartSpec(): fc.Arbitrary<RawPartSpec> {
  return fc.oneof(
    {
      weight: 8,
      arbitrary: record({
        kind: fc.constant('part' as const),
        type: fc.constantFrom(...RAW_TYPES),
        id: partId,
        name: toolName,
        payload: fc.oneof(
          { weight: 3, arbitrary: fc.constant({ kind: 'marker' as const }) },
          { weight: 1, arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }) },
        ),
        providerExecuted: fc.constantFrom<true | false | undefined | 'true' | 1>(
          true,
          false,
          undefined,
          'true',
          1,
        ),
      }),
    },
    { weight: 1, arbitrary: record({ kind: fc.constant('hostile' as const), value: valueSpec() }) },
  );
}

export function aiSdkCase(): fc.Arbitrary<AiSdkCase> {
  const loop = fc.constantFrom('none' as const, 'generate' as const, 'stream' as const);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: record({
        kind: fc.constant('paired' as const),
        loop,
        answer: fc.array(answerPart(), { maxLength: 8 }),
      }),
    },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('separate' as const),
        loop,
        content: fc.oneof(
          { weight: 12, arbitrary: fc.array(rawPartSpec(), { maxLength: 8 }) },
          { weight: 1, arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }) },
        ),
        stream: fc.array(rawPartSpec(), { maxLength: 10 }),
        end: fc.constantFrom('finish' as const, 'finish' as const, 'none' as const, 'error' as const),
      }),
    },
  );
}
