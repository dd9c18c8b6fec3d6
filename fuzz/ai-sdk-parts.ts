import type {
  AiSdkCase,
  AnswerPart,
  GenerateCarrier,
  JunkSpec,
  PartId,
  RawPartSpec,
  StreamCarrier,
} from './hostile-ai-sdk.js';
import { materializeValue } from './hostile-values.js';

/** What the oracle knows of a plain part it built (hostile parts have none). */
interface PartFact {
  readonly type: string;
  readonly id: PartId;
  readonly providerExecuted: boolean;
  /** The k of the `{"n":k}` text the part carries, if any. */
  readonly marker: number | undefined;
}

/** The calls of one form of the answer that the provider runs: no local call may carry their id or marker. */
export interface ProviderFacts {
  readonly ids: ReadonlySet<string>;
  readonly markers: ReadonlySet<number>;
}

export interface PathAnswer {
  /** `doGenerate`'s content, or `doStream`'s parts (the stream's end included). */
  readonly value: unknown;
  readonly facts: ProviderFacts;
}

export interface MaterializedAnswer {
  readonly generate: PathAnswer;
  readonly stream: PathAnswer & { readonly value: readonly unknown[] };
}

const FINISH = Object.freeze({
  type: 'finish',
  usage: { inputTokens: { total: 3 }, outputTokens: { total: 2 } },
  finishReason: { unified: 'stop', raw: 'stop' },
});
const TOOL_TYPES: ReadonlySet<string> = new Set(['tool-input-start', 'tool-input-delta', 'tool-call']);
const usable = (id: PartId): id is 'c1' | 'c2' | 'c3' => typeof id === 'string' && id !== '';
const markerText = (k: number) => `{"n":${k}}`;

/** The k of every `{"n":k}` in a call's arguments. */
export function markersOf(args: unknown): number[] {
  if (typeof args !== 'string') return [];
  return [...args.matchAll(/"n":(\d+)/g)].map((match) => Number(match[1]));
}

/**
 * The calls the provider runs, as the parts say, read as the adapter must: a stream up to its first
 * `finish` or `error` (nothing after is read), a content array by its content types only.
 */
function providerFacts(facts: readonly PartFact[], path: 'generate' | 'stream'): ProviderFacts {
  const read: PartFact[] = [];
  for (const fact of facts) {
    if (path === 'generate' && !['tool-call', 'tool-result', 'tool-approval-request'].includes(fact.type))
      continue;
    read.push(fact);
    if (path === 'stream' && (fact.type === 'finish' || fact.type === 'error')) break;
  }
  const ids = new Set<string>();
  const markers = new Set<number>();
  for (const fact of read) {
    const flagged = fact.providerExecuted && TOOL_TYPES.has(fact.type);
    if (flagged && fact.marker !== undefined) markers.add(fact.marker);
    if (!usable(fact.id)) continue;
    if (flagged || fact.type === 'tool-result' || fact.type === 'tool-approval-request') ids.add(fact.id);
  }
  for (const fact of read) {
    if (usable(fact.id) && ids.has(fact.id) && fact.marker !== undefined && TOOL_TYPES.has(fact.type))
      markers.add(fact.marker);
  }
  return { ids, markers };
}

/** Parts of one form of the answer, with what the oracle knows of each. */
class PartList {
  readonly parts: unknown[] = [];
  readonly facts: PartFact[] = [];

  plain(part: Record<string, unknown>, marker?: number): void {
    this.parts.push(part);
    const { type, providerExecuted } = part;
    const id = (
      type === 'tool-input-start' || type === 'tool-input-delta' ? part.id : part.toolCallId
    ) as PartId;
    this.facts.push({ type: String(type), id, providerExecuted: providerExecuted === true, marker });
  }

  hostile(part: unknown): void {
    this.parts.push(part);
  }
}

function chunksOf(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks.length === 0 ? [''] : chunks;
}

function junkPart(junk: JunkSpec, path: 'generate' | 'stream'): unknown {
  const boom = () => {
    throw new Error('fuzz: part getter trap');
  };
  switch (junk.kind) {
    case 'value':
      return materializeValue(junk.value);
    case 'type':
      return { type: junk.type, id: 'c1', toolCallId: 'c1', text: 'junk', delta: 'junk' };
    case 'bad-text':
      return path === 'generate'
        ? { type: 'text', text: materializeValue(junk.value) }
        : { type: 'text-delta', id: 't', delta: materializeValue(junk.value) };
    case 'throwing':
      return junk.field === 'type'
        ? Object.defineProperty({}, 'type', { get: boom, enumerable: true })
        : Object.defineProperty({ type: 'tool-call', toolName: 'echo', input: '{}' }, 'toolCallId', {
            get: boom,
            enumerable: true,
          });
    default: {
      const unreachable: never = junk;
      return unreachable;
    }
  }
}

function addResults(list: PartList, carriers: readonly string[], id: PartId, k: number): void {
  if (carriers.includes('result'))
    list.plain({ type: 'tool-result', toolCallId: id, toolName: 'echo', result: { ok: true } });
  if (carriers.includes('approval'))
    list.plain({ type: 'tool-approval-request', approvalId: `a${k}`, toolCallId: id });
}

type CallPart = Extract<AnswerPart, { kind: 'call' }>;

/** Which parts of the stream say the call is the provider's: those the stream sends, at least one. */
function streamCarriers(call: CallPart, streamed: boolean): readonly StreamCarrier[] {
  const provider = call.provider;
  if (provider === undefined) return [];
  // An unusable id links no part to another: only the call's own parts, as in the content.
  if (!usable(call.id)) return provider.generate;
  const sent = provider.stream.filter(
    (carrier) =>
      (carrier !== 'start' || (streamed && call.style === 'deltas')) && (carrier !== 'delta' || streamed),
  );
  return sent.length > 0 ? sent : ['call'];
}

function addCall(generate: PartList, stream: PartList, call: CallPart, k: number): void {
  const input =
    call.input === 'json'
      ? markerText(k)
      : call.input === 'broken'
        ? markerText(k).slice(0, -1)
        : call.input === 'object'
          ? { n: k }
          : null;
  const toolCall = (flag: boolean) => ({
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.name,
    input,
    ...(flag ? { providerExecuted: true } : {}),
  });
  const gen: readonly GenerateCarrier[] = call.provider?.generate ?? [];
  if (call.resultFirst) addResults(generate, gen, call.id, k);
  generate.plain(toolCall(gen.includes('call')), k);
  if (!call.resultFirst) addResults(generate, gen, call.id, k);

  const streamed = usable(call.id) && typeof input === 'string' && call.style !== 'whole';
  const carriers = streamCarriers(call, streamed);
  if (call.resultFirst) addResults(stream, carriers, call.id, k);
  if (streamed) {
    if (call.style === 'deltas') {
      const flag = carriers.includes('start') ? { providerExecuted: true } : {};
      stream.plain({ type: 'tool-input-start', id: call.id, toolName: call.name, ...flag });
    }
    chunksOf(input, call.chunks).forEach((delta, index) => {
      const flag = index === 0 && carriers.includes('delta') ? { providerExecuted: true } : {};
      stream.plain({ type: 'tool-input-delta', id: call.id, delta, ...flag }, k);
    });
    stream.plain({ type: 'tool-input-end', id: call.id });
  }
  stream.plain(toolCall(carriers.includes('call')), k);
  if (!call.resultFirst) addResults(stream, carriers, call.id, k);
}

function materializePaired(answer: readonly AnswerPart[]): MaterializedAnswer {
  const generate = new PartList();
  const stream = new PartList();
  for (const [k, part] of answer.entries()) {
    switch (part.kind) {
      case 'text':
        generate.plain({ type: 'text', text: part.text });
        for (const delta of chunksOf(part.text, part.chunks))
          stream.plain({ type: 'text-delta', id: 't', delta });
        break;
      case 'call':
        addCall(generate, stream, part, k);
        break;
      case 'result':
        for (const list of [generate, stream])
          addResults(list, [part.approval ? 'approval' : 'result'], part.id, k);
        break;
      case 'junk':
        generate.hostile(junkPart(part.junk, 'generate'));
        stream.hostile(junkPart(part.junk, 'stream'));
        break;
      default: {
        const unreachable: never = part;
        throw new Error(`unknown answer part ${String(unreachable)}`);
      }
    }
  }
  stream.plain({ ...FINISH });
  return {
    generate: { value: generate.parts, facts: providerFacts(generate.facts, 'generate') },
    stream: { value: stream.parts, facts: providerFacts(stream.facts, 'stream') },
  };
}

function addRaw(list: PartList, spec: RawPartSpec, k: number): void {
  if (spec.kind === 'hostile') {
    list.hostile(materializeValue(spec.value));
    return;
  }
  if (spec.type === 'finish') {
    list.plain({ ...FINISH });
    return;
  }
  const payload = spec.payload.kind === 'marker' ? markerText(k) : materializeValue(spec.payload.value);
  list.plain(
    {
      type: spec.type,
      id: spec.id,
      toolCallId: spec.id,
      toolName: spec.name,
      approvalId: `a${k}`,
      input: payload,
      delta: payload,
      text: payload,
      result: { ok: true },
      error: payload,
      providerExecuted: spec.providerExecuted,
    },
    spec.payload.kind === 'marker' ? k : undefined,
  );
}

/** The case's content parts and stream parts, built fresh, with the calls the provider runs in each. */
export function materializeAnswer(spec: AiSdkCase): MaterializedAnswer {
  if (spec.kind === 'paired') return materializePaired(spec.answer);
  const stream = new PartList();
  for (const [k, part] of spec.stream.entries()) addRaw(stream, part, k);
  if (spec.end === 'finish') stream.plain({ ...FINISH });
  else if (spec.end === 'error') stream.plain({ type: 'error', error: new Error('fuzz: stream error') });
  if (!Array.isArray(spec.content)) {
    const content = spec.content as { readonly value: Parameters<typeof materializeValue>[0] };
    return {
      generate: { value: materializeValue(content.value), facts: { ids: new Set(), markers: new Set() } },
      stream: { value: stream.parts, facts: providerFacts(stream.facts, 'stream') },
    };
  }
  const content = new PartList();
  for (const [k, part] of (spec.content as readonly RawPartSpec[]).entries()) addRaw(content, part, k);
  return {
    generate: { value: content.parts, facts: providerFacts(content.facts, 'generate') },
    stream: { value: stream.parts, facts: providerFacts(stream.facts, 'stream') },
  };
}
