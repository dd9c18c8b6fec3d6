import { createToolRuntime, defineTool, type Message, runToolLoop } from '../dist/index.js';
import type { GeneratingModel, ToolSpec } from '../dist/ports/index.js';
import { add, addSchema } from './add-tool.js';
import { compare, formatRow, type Subject } from './measure.js';

// The loop guard's own cost, side by side with the guard off: per round of one call, and per call in a
// parallel round of 8, against what the rest of the chain costs per call in the same round. With
// TOOLWARDEN_GUARD_BASELINE (the dist folder of the build before the guard's last change) the loop with
// guards on is compared with that build's, in one run.

const tool = defineTool({
  name: 'add',
  description: 'Adds.',
  effect: 'read',
  input: addSchema,
  execute: add,
});
const USER: readonly Message[] = [{ role: 'user', content: 'add them all' }];
const USAGE = { inputTokens: 10, outputTokens: 5 };
const NO_TOOLS: readonly ToolSpec[] = [];
const ROUNDS = 50;

/** `rounds` rounds of `calls` add calls with new arguments each (so new results: the guard never stops), then an answer. */
function model(rounds: number, calls: number): GeneratingModel {
  let index = 0;
  return {
    async generate() {
      index++;
      if (index > rounds) return { message: { role: 'assistant', content: 'done' }, usage: USAGE };
      const toolCalls = Array.from({ length: calls }, (_, j) => ({
        id: `c${index}_${j}`,
        name: 'add',
        arguments: `{"a": ${index}, "b": ${1 + j * 1_000_000}}`,
      }));
      return { message: { role: 'assistant', content: '', toolCalls }, usage: USAGE };
    },
  };
}

type Loop = (calls: number, guard: boolean) => Promise<void>;

const current: Loop = async (calls, guard) => {
  const outcome = await runToolLoop({
    model: model(ROUNDS, calls),
    messages: USER,
    runtime: createToolRuntime({ tools: [tool], limits: { exclude: ['add'] } }),
    maxRoundTrips: ROUNDS + 1,
    ...(guard ? {} : { guard: false as const }),
  });
  if (outcome.type !== 'completed') throw new Error(`the bench request did not complete: ${outcome.type}`);
};

/** The same request through an earlier build's `runToolLoop`. */
async function baseline(dist: string): Promise<Loop> {
  const old = await import(`${dist}/index.js`);
  const oldTool = old.defineTool({
    name: 'add',
    description: 'Adds.',
    effect: 'read',
    input: addSchema,
    execute: add,
  });
  return async (calls, guard) => {
    const outcome = await old.runToolLoop({
      model: model(ROUNDS, calls),
      messages: USER,
      runtime: old.createToolRuntime({ tools: [oldTool], limits: { exclude: ['add'] } }),
      maxRoundTrips: ROUNDS + 1,
      ...(guard ? {} : { guard: false }),
    });
    if (outcome.type !== 'completed')
      throw new Error(`the baseline request did not complete: ${outcome.type}`);
  };
}

/** A hand loop over `runtime.executeToolCalls`: the chain without the loop or the guard. */
async function chainOnly(calls: number): Promise<void> {
  const runtime = createToolRuntime({ tools: [tool], limits: { exclude: ['add'] } });
  const generating = model(ROUNDS, calls);
  const signal = new AbortController().signal;
  let messages: readonly Message[] = USER;
  for (;;) {
    const { message } = await generating.generate({ messages, tools: NO_TOOLS, signal });
    if ((message.toolCalls ?? []).length === 0) break;
    messages = (await runtime.executeToolCalls({ messages, response: message })).messages;
  }
}

/** The least a loop does: generate, parse, call, stringify, push. */
async function floor(calls: number): Promise<void> {
  const generating = model(ROUNDS, calls);
  const signal = new AbortController().signal;
  const messages: Message[] = [...USER];
  for (;;) {
    const { message } = await generating.generate({ messages, tools: NO_TOOLS, signal });
    messages.push(message);
    if ((message.toolCalls ?? []).length === 0) break;
    for (const call of message.toolCalls ?? []) {
      const value = await add(JSON.parse(call.arguments) as { a: number; b: number });
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: JSON.stringify(value),
        isError: false,
      });
    }
  }
}

function subject(name: string, request: () => Promise<void>): Subject {
  return {
    name,
    async run(n) {
      for (let done = 0; done < n; done += ROUNDS) await request();
    },
  };
}

export async function benchGuardCost(): Promise<string[]> {
  const dist = process.env.TOOLWARDEN_GUARD_BASELINE;
  const old = dist === undefined ? undefined : await baseline(dist);
  const lines = ['### The loop guard: its own cost (median of 15 interleaved rounds x 2,000 rounds)', ''];
  for (const calls of [1, 8]) {
    const subjects = [
      subject('floor loop', () => floor(calls)),
      subject('hand loop over executeToolCalls (the chain)', () => chainOnly(calls)),
      subject('runToolLoop, guard: false', () => current(calls, false)),
      subject('runToolLoop, guards on', () => current(calls, true)),
      ...(old === undefined
        ? []
        : [
            subject('the baseline build: guard: false', () => old(calls, false)),
            subject('the baseline build: guards on', () => old(calls, true)),
          ]),
    ];
    const { medians, between } = await compare(subjects, {
      rounds: 15,
      operations: 2_000,
      warmup: 2_000,
    });
    const at = (index: number) => medians[subjects[index]?.name ?? ''] ?? Number.NaN;
    lines.push(
      `${calls === 1 ? 'Sequential: 1 call per round' : 'Parallel: 8 calls per round'}`,
      '',
      formatRow(['subject', 'µs per round', 'µs per call']),
      formatRow(['---', '---', '---']),
      ...subjects.map((s) => formatRow([s.name, medians[s.name] ?? 0, (medians[s.name] ?? 0) / calls])),
      '',
    );
    const guardPerCall = (at(3) - at(2)) / calls;
    const chainPerCall = (at(1) - at(0)) / calls;
    lines.push(`The guard alone (guards on minus guard: false): ${guardPerCall.toFixed(2)} µs per call.`);
    if (calls === 8)
      lines.push(
        `Target: in a parallel round of 8 the guard adds no more per call than the chain costs (${chainPerCall.toFixed(2)} µs per call): ${verdict(guardPerCall <= chainPerCall)}.`,
      );
    if (old !== undefined && calls === 1) {
      const against = between(subjects[3]?.name ?? '', subjects[5]?.name ?? '');
      lines.push(
        `Target: the loop, guards on, <= 1.2x the baseline build's, side by side: ${against.toFixed(2)}x, ${verdict(against <= 1.2)}.`,
      );
    }
    lines.push('');
  }
  return lines;
}

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
