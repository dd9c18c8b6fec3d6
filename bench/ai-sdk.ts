import type {
  LanguageModelV3,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { fromAiSdkModel } from '../dist/adapters/ai-sdk/index.js';
import { type Message, type Model, type ModelResponse, runToolLoop, streamToolLoop } from '../dist/index.js';
import type { GeneratingModel, ModelStreamPart } from '../dist/ports/index.js';
import { addTool as tool } from './add-tool.js';
import { compare, formatRow, type Subject } from './measure.js';

const USER: readonly Message[] = [{ role: 'user', content: 'add 1 and 2' }];
const ARGS = '{"a":1,"b":2}';
const USAGE = { inputTokens: 10, outputTokens: 5 };
const V3_USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

// (a) One request, two rounds: a call of `add`, then the answer; the same answers in both forms.
const V3_ANSWERS: readonly LanguageModelV3GenerateResult[] = [
  {
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: ARGS }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: V3_USAGE,
    warnings: [],
  },
  {
    content: [{ type: 'text', text: 'The sum is 3.' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: V3_USAGE,
    warnings: [],
  },
];
const ANSWERS: readonly ModelResponse[] = [
  {
    message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'add', arguments: ARGS }] },
    usage: USAGE,
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  },
  {
    message: { role: 'assistant', content: 'The sum is 3.' },
    usage: USAGE,
    finishReason: { unified: 'stop', raw: 'stop' },
  },
];
/** The answers in turn, by the round the prompt is at (a tool message last: the answer). */
const pick = <T>(answers: readonly T[], last: { role: string } | undefined): T =>
  answers[last?.role === 'tool' ? 1 : 0] as T;

const handWritten: GeneratingModel = {
  generate: async (request) => pick(ANSWERS, request.messages.at(-1)),
};
const mock = new MockLanguageModelV3({
  doGenerate: async (options) => pick(V3_ANSWERS, options.prompt.at(-1)),
});
const bare: LanguageModelV3 = {
  specificationVersion: 'v3',
  provider: 'bench',
  modelId: 'bare',
  supportedUrls: {},
  doGenerate: async (options) => pick(V3_ANSWERS, options.prompt.at(-1)),
  doStream: () => Promise.reject(new Error('not used')),
};

/** A subject whose operation is one round: `run(n)` runs n / 2 requests of two rounds. */
function perRound(name: string, model: Model, after?: () => void): Subject {
  return {
    name,
    async run(n) {
      for (let done = 0; done < n; done += 2) {
        const outcome = await runToolLoop({ model, messages: USER, tools: [tool] });
        if (outcome.type !== 'completed' || outcome.roundTrips !== 2)
          throw new Error('the request went wrong');
        after?.();
      }
    },
  };
}

const rounds = {
  hand: perRound('hand-written Model (the same answers)', handWritten),
  bare: perRound('fromAiSdkModel(a bare LanguageModelV3 object)', fromAiSdkModel(bare)),
  // The mock records every call: cleared per request, so its memory does not grow over the run.
  mock: perRound('fromAiSdkModel(MockLanguageModelV3)', fromAiSdkModel(mock), () => {
    mock.doGenerateCalls.length = 0;
  }),
};

// (b) One answer of DELTAS text deltas, streamed with deltas: through the adapter vs the core's own parts.
const DELTAS = 256;
const words = Array.from({ length: DELTAS }, (_, i) => `w${i} `);
const V3_PARTS: readonly LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: '0' },
  ...words.map((delta) => ({ type: 'text-delta' as const, id: '0', delta })),
  { type: 'text-end', id: '0' },
  { type: 'finish', usage: V3_USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
];
const PARTS: readonly ModelStreamPart[] = [
  ...words.map((delta) => ({ type: 'text-delta' as const, delta })),
  { type: 'finish', usage: USAGE },
];

/** The V3 parts as a ReadableStream that hands out one part per pull, as a provider's stream does. */
function v3Stream(): ReadableStream<LanguageModelV3StreamPart> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      const part = V3_PARTS[at++];
      if (part === undefined) controller.close();
      else controller.enqueue(part);
    },
  });
}
const streamingV3: LanguageModelV3 = {
  ...bare,
  doStream: async () => ({ stream: v3Stream() }),
};
/** The core's parts as a bare iterator (as bench/streaming.ts): the model's own cost is not measured. */
const core: Model = {
  stream: () => {
    let at = 0;
    return {
      [Symbol.asyncIterator]: () => ({
        next: async () =>
          at < PARTS.length
            ? { done: false, value: PARTS[at++] as ModelStreamPart }
            : { done: true, value: undefined },
      }),
    };
  },
};

/** A subject whose operation is one delta: `run(n)` runs n / DELTAS requests. */
function perDelta(name: string, request: () => Promise<void>): Subject {
  return {
    name,
    async run(n) {
      for (let done = 0; done < n; done += DELTAS) await request();
    },
  };
}
const streamed = (model: Model) => async () => {
  let deltas = 0;
  for await (const event of streamToolLoop({ model, messages: USER, tools: [tool], streamDeltas: true }))
    if (event.type === 'model-text-delta') deltas++;
  if (deltas !== DELTAS) throw new Error('the streamed request lost deltas');
};
const deltas = {
  floor: perDelta('floor: reading the V3 ReadableStream itself', async () => {
    const reader = v3Stream().getReader();
    let read = 0;
    for (let next = await reader.read(); next.done !== true; next = await reader.read()) read++;
    if (read !== V3_PARTS.length) throw new Error('the floor lost parts');
  }),
  core: perDelta('streamToolLoop, the core’s parts (bench/streaming.ts)', streamed(core)),
  adapter: perDelta('streamToolLoop, fromAiSdkModel over doStream', streamed(fromAiSdkModel(streamingV3))),
};

/** µs per round of fromAiSdkModel beside a hand-written model; µs per delta through the adapter. */
export async function benchAiSdk(): Promise<string[]> {
  const roundSubjects = [rounds.hand, rounds.bare, rounds.mock];
  const a = await compare(roundSubjects, { rounds: 15, operations: 2000, warmup: 2000 });
  const deltaSubjects = [deltas.core, deltas.floor, deltas.adapter];
  const b = await compare(deltaSubjects, { rounds: 15, operations: DELTAS * 20, warmup: DELTAS * 20 });
  const row = (c: typeof a, subject: Subject) => [
    subject.name,
    c.medians[subject.name] ?? Number.NaN,
    `${(c.ratios[subject.name] ?? Number.NaN).toFixed(2)}x`,
  ];
  const of = (c: typeof a, subject: Subject) => c.medians[subject.name] ?? Number.NaN;
  return [
    'AI SDK adapter: runToolLoop, one request of two rounds (a call of add, then the answer), µs per round.',
    '',
    formatRow(['subject', 'µs per round', 'vs hand-written']),
    formatRow(['---', '---', '---']),
    ...roundSubjects.map((subject) => formatRow(row(a, subject))),
    '',
    `fromAiSdkModel mapping cost per round: ${(of(a, rounds.bare) - of(a, rounds.hand)).toFixed(2)} µs (bare V3 object), ${(of(a, rounds.mock) - of(a, rounds.hand)).toFixed(2)} µs with MockLanguageModelV3.`,
    '',
    `AI SDK adapter streaming: one answer of ${DELTAS} text deltas, streamToolLoop with streamDeltas, µs per delta.`,
    '',
    formatRow(['subject', 'µs per delta', 'vs core']),
    formatRow(['---', '---', '---']),
    ...deltaSubjects.map((subject) => formatRow(row(b, subject))),
    '',
    `Per-delta overhead of the adapter over the core: ${(of(b, deltas.adapter) - of(b, deltas.core)).toFixed(2)} µs (the ReadableStream alone: ${of(b, deltas.floor).toFixed(2)} µs).`,
  ];
}
