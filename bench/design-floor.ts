import { createHook } from 'node:async_hooks';
import { Ajv } from 'ajv';
import { countTurnCalls } from '../dist/chain/limits.js';
import { normalizeToolCalls } from '../dist/chain/normalize-tool-calls.js';
import { parseArguments } from '../dist/chain/parse-arguments.js';
import { newCallId } from '../dist/chain/runtime.js';
import { withTimeout } from '../dist/chain/with-timeout.js';
import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../dist/core/defaults.js';
import { createToolRuntime, type Message } from '../dist/index.js';
import { summarizeArguments } from '../dist/redact/redact.js';
import { serializeValue } from '../dist/serialize/serialize-value.js';
import { assistantWithCalls } from '../dist/testing/index.js';
import { add, addSchema, addTool } from './add-tool.js';
import { allocatedBytes, compare, formatRow, type Subject } from './measure.js';

/**
 * What the shape that issue 8 asks for costs before any feature: the chain "written as ordinary async
 * functions" with "timeouts on timers you own". Each subject does the floor's work (parse, validate,
 * call, stringify) and nothing else, in a given shape of awaited functions; the chain's own row is
 * measured in the same run. The promises each shape makes per call are counted (async_hooks), so the
 * shapes can be compared with the chain's own count.
 */

const argumentsText = '{"a": 20, "b": 22}';
const validate = new Ajv().compile(addSchema);
const TIMEOUT = {
  timeoutMs: 60_000,
  timeoutError: () => new Error('timeout'),
  signal: undefined,
  abort: () => {},
};

let sink = 0;

/** The chain section's floor: the least any executor must do. */
async function floor(): Promise<void> {
  const args = JSON.parse(argumentsText) as { a: number; b: number };
  if (!validate(args)) throw new Error('invalid');
  sink += JSON.stringify(await add(args)).length;
}

/** The fewest awaited functions a plain-async chain with an owned timeout can have: prepare, run under the timer, deliver. */
async function smallestShape(): Promise<void> {
  const args = await prepare();
  const value = await withTimeout(() => add(args), TIMEOUT);
  sink += (await deliver(value)).length;
}

async function prepare(): Promise<{ a: number; b: number }> {
  const args = JSON.parse(argumentsText) as { a: number; b: number };
  if (!(await validateInput(args))) throw new Error('invalid');
  return args;
}

/** A Standard Schema validator may answer with a promise, so the chain awaits every validation. */
async function validateInput(args: unknown): Promise<boolean> {
  return validate(args);
}

async function deliver(value: unknown): Promise<string> {
  return JSON.stringify(value);
}

/**
 * The chain's own nesting, each function doing nothing but await the next: runtime.executeToolCalls →
 * runToolCalls → runCalls → prepareToolCall (→ validateInput) → runReady → runIdempotent → attempt →
 * withTimeout (→ execute) → deliverResult.
 */
async function chainShape(): Promise<void> {
  sink += (await executeToolCalls()).length;
}
async function executeToolCalls(): Promise<string> {
  return await runToolCalls();
}
async function runToolCalls(): Promise<string> {
  return await runCalls();
}
async function runCalls(): Promise<string> {
  const args = await prepare();
  return await runReady(args);
}
async function runReady(args: { a: number; b: number }): Promise<string> {
  return await runIdempotent(() => attempt(args));
}
async function runIdempotent(run: () => Promise<string>): Promise<string> {
  return await run();
}
async function attempt(args: { a: number; b: number }): Promise<string> {
  const value = await withTimeout(() => add(args), TIMEOUT);
  return await deliver(value);
}

const runtime = createToolRuntime({ tools: [addTool] });
const messages: readonly Message[] = [{ role: 'user', content: 'add 20 and 22' }];
const response = assistantWithCalls([{ name: 'add', arguments: argumentsText }]);
async function chain(): Promise<void> {
  const result = await runtime.executeToolCalls({ messages, response, onEvent: () => {} });
  if (result.results[0]?.type !== 'success') throw new Error('the benchmark call failed');
}

/** Calls per allocation sample: few enough that no GC runs during one (see `allocatedBytes`). */
const BATCH = 200;

/** Promises made per call by `run`, counted by an async hook (enabled only while counting). */
async function promisesPerCall(run: () => Promise<void>, calls = 1_000): Promise<number> {
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made++;
    },
  });
  hook.enable();
  for (let i = 0; i < calls; i++) await run();
  hook.disable();
  return made / calls;
}

/**
 * Some of the chain's own steps, each alone and synchronous (no await), on the benchmark's call: what each
 * costs apart from the shape. Not all of them: limits, the idempotency decision, the tool's context,
 * results and tool messages are left out.
 */
function steps(): Subject[] {
  const call = response.toolCalls?.[0];
  if (call === undefined) throw new Error('the benchmark response has no call');
  const limits = { maxBytes: 1024 * 1024, maxDepth: 64 };
  const history: readonly Message[] = messages.concat([response]);
  const events = [{ type: 'tool-call-start' }, { type: 'tool-call-end' }];
  let seen = 0;
  const listener = (event: { type: string }) => {
    seen += event.type.length;
  };
  const step = (name: string, once: () => unknown): Subject => ({
    name,
    async run(n) {
      for (let i = 0; i < n; i++) if (once() === undefined) sink++;
    },
  });
  return [
    step('JSON.parse of the arguments alone (in the floor too)', () => JSON.parse(argumentsText)),
    step('call repair (normalizeToolCalls: ids, names, argument text)', () =>
      normalizeToolCalls(response.toolCalls, newCallId),
    ),
    step('argument parsing with its limits (parseArguments: size, depth, prototype keys)', () =>
      parseArguments(argumentsText, limits),
    ),
    step('turn counts (countTurnCalls: the history walked back to its user message)', () =>
      countTurnCalls(history, () => false),
    ),
    step("the events' redacted argument summary (summarizeArguments)", () =>
      summarizeArguments(argumentsText, DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS),
    ),
    step('two events delivered to a listener', () => {
      for (const event of events) listener(event);
      return seen;
    }),
    step('deterministic result text (serializeValue)', () => serializeValue({ sum: 42 })),
  ];
}

function subject(name: string, run: () => Promise<void>): Subject {
  return {
    name,
    async run(n) {
      for (let i = 0; i < n; i++) await run();
      if (sink < 0) throw new Error('unreachable');
    },
  };
}

export async function benchDesignFloor(): Promise<string[]> {
  const shapes = [
    { name: 'floor (parse + validate + call + stringify)', run: floor },
    {
      name: 'the floor in the smallest plain-async shape (3 awaited functions + an owned timer)',
      run: smallestShape,
    },
    {
      name: "the floor in the chain's own async shape (8 awaited functions + an owned timer)",
      run: chainShape,
    },
    { name: 'runtime.executeToolCalls (the chain, events read)', run: chain },
  ];
  const promises: number[] = [];
  const bytes: number[] = [];
  for (const shape of shapes) {
    promises.push(await promisesPerCall(shape.run));
    bytes.push(
      (await allocatedBytes(async () => {
        for (let i = 0; i < BATCH; i++) await shape.run();
      })) / BATCH,
    );
  }
  const subjects = shapes.map((shape) => subject(shape.name, shape.run));
  const { medians, ratios } = await compare(subjects, { rounds: 15, operations: 3_000, warmup: 5_000 });
  const ratioOf = (index: number) => ratios[(subjects[index] as Subject).name] ?? Number.NaN;
  const parts = steps();
  const alone = await compare(parts, { rounds: 15, operations: 20_000, warmup: 20_000 });
  const floorMicros = medians[(subjects[0] as Subject).name] ?? Number.NaN;
  // Argument parsing is counted less the JSON.parse that the floor does too.
  const parse = alone.medians[(parts[0] as Subject).name] ?? 0;
  const sum = parts.slice(1).reduce((total, part) => total + (alone.medians[part.name] ?? 0), -parse);
  return [
    '### The shape alone: the floor written as issue 8 asks (ordinary async functions, timers owned), no feature (median of 15 interleaved rounds x 3,000 calls)',
    '',
    formatRow(['subject', 'µs per call', 'ratio to floor', 'promises per call', 'bytes allocated per call']),
    formatRow(['---', '---', '---', '---', '---']),
    ...subjects.map((s, i) =>
      formatRow([
        s.name,
        medians[s.name] ?? 0,
        ratios[s.name] ?? 0,
        promises[i] ?? 0,
        String(Math.round(bytes[i] ?? 0)),
      ]),
    ),
    '',
    `Issue 8's chain target is 3.5x the floor. The smallest plain-async shape alone is ${ratioOf(1).toFixed(2)}x, the chain's shape alone ${ratioOf(2).toFixed(2)}x, before any of the chain's work (call repair, turn counts and limits, redacted event summaries, events, results and history). Issue 9's loop target is < 10 KiB per round; the chain's shape alone allocates ${((bytes[2] ?? 0) / 1024).toFixed(1)} KiB per call.`,
    '',
    `Some of the chain's steps, each alone (synchronous, median of 15 interleaved rounds x 20,000), beside the floor's ${floorMicros.toFixed(2)} µs per call:`,
    '',
    formatRow(['step', 'µs per call', 'in floors']),
    formatRow(['---', '---', '---']),
    ...parts.map((part) => {
      const micros = alone.medians[part.name] ?? 0;
      return formatRow([part.name, micros, micros / floorMicros]);
    }),
    '',
    `These steps (argument parsing less its JSON.parse) add up to ${sum.toFixed(2)} µs, ${(sum / floorMicros).toFixed(2)} floors: with the smallest shape (${ratioOf(1).toFixed(2)}x), ${(ratioOf(1) + sum / floorMicros).toFixed(2)}x the floor before limits, the idempotency decision, the tool's context, results and tool messages.`,
  ];
}
