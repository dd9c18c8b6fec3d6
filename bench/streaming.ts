import { type Message, type Model, type ModelResponse, runToolLoop, streamToolLoop } from '../dist/index.js';
import type { ModelStreamPart } from '../dist/ports/index.js';
import { addTool as tool } from './add-tool.js';
import { compare, formatRow, type Subject } from './measure.js';

/** Deltas per answer: a long streamed answer, so the per-request cost is spread thin. */
const DELTAS = 256;
const USER: readonly Message[] = [{ role: 'user', content: 'tell me a story' }];
const USAGE = { inputTokens: 10, outputTokens: 5 };
const PARTS: readonly ModelStreamPart[] = [
  ...Array.from({ length: DELTAS }, (_, i) => ({ type: 'text-delta' as const, delta: `w${i} ` })),
  { type: 'finish', usage: USAGE },
];
const ANSWER: ModelResponse = {
  message: {
    role: 'assistant',
    content: PARTS.map((p) => (p.type === 'text-delta' ? p.delta : '')).join(''),
  },
  usage: USAGE,
};

/** The parts as a bare iterator (no generator, nothing recorded): the model's own cost is not measured. */
function partsStream(): AsyncIterable<ModelStreamPart> {
  let at = 0;
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () =>
        at < PARTS.length
          ? { done: false, value: PARTS[at++] as ModelStreamPart }
          : { done: true, value: undefined },
    }),
  };
}

const model: Model = { generate: async () => ANSWER, stream: partsStream };

/** A subject whose operation is one delta: `run(n)` runs n / DELTAS requests. */
function perDelta(name: string, request: () => Promise<void>): Subject {
  return {
    name,
    async run(n) {
      for (let done = 0; done < n; done += DELTAS) await request();
    },
  };
}

const floor = perDelta('floor: for-await over the raw parts', async () => {
  let text = '';
  for await (const part of partsStream()) if (part.type === 'text-delta') text += part.delta;
  if (text.length !== ANSWER.message.content.length) throw new Error('the floor lost text');
});
const generated = perDelta('runToolLoop, generate (the answer whole, no deltas)', async () => {
  const outcome = await runToolLoop({ model, messages: USER, tools: [tool] });
  if (outcome.type !== 'completed') throw new Error('the request did not complete');
});
const listened = perDelta('runToolLoop, stream + streamDeltas (onEvent)', async () => {
  let deltas = 0;
  const outcome = await runToolLoop({
    model,
    messages: USER,
    tools: [tool],
    streamDeltas: true,
    onEvent: (event) => {
      if (event.type === 'model-text-delta') deltas++;
    },
  });
  if (outcome.type !== 'completed' || deltas !== DELTAS) throw new Error('the listened request went wrong');
});
const streamed = perDelta('streamToolLoop, stream + streamDeltas (every event read)', async () => {
  let deltas = 0;
  for await (const event of streamToolLoop({ model, messages: USER, tools: [tool], streamDeltas: true }))
    if (event.type === 'model-text-delta') deltas++;
  if (deltas !== DELTAS) throw new Error('the streamed request lost deltas');
});

/** µs per delta of the loop's streaming form, beside the same answer generated whole. */
export async function benchStreaming(): Promise<string[]> {
  const subjects = [generated, floor, listened, streamed];
  const { medians } = await compare(subjects, { rounds: 15, operations: DELTAS * 20, warmup: DELTAS * 20 });
  const of = (subject: Subject) => medians[subject.name] ?? Number.NaN;
  return [
    `Streaming: one answer of ${DELTAS} text deltas (µs per delta; the generate row is the whole request / ${DELTAS}).`,
    '',
    formatRow(['subject', 'µs per delta']),
    formatRow(['---', '---']),
    ...subjects.map((subject) => formatRow([subject.name, of(subject)])),
    '',
    `Per-delta overhead over generate: onEvent ${(of(listened) - of(generated)).toFixed(2)} µs, streamToolLoop ${(of(streamed) - of(generated)).toFixed(2)} µs.`,
  ];
}
