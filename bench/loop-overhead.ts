import {
  type AssistantMessage,
  createToolRuntime,
  defaults,
  defineTool,
  MemoryStore,
  type Message,
  type Model,
  type ModelResponse,
  type RunEvent,
  runToolLoop,
} from '../dist/index.js';
import type { GeneratingModel, ToolSpec } from '../dist/ports/index.js';
import { storeKey } from '../dist/store/store-key.js';
import { add, addSchema } from './add-tool.js';
import { allocatedBytes, compare, flush, formatRow, median, type Subject, settledHeap } from './measure.js';

const schema = addSchema;
const tool = defineTool({ name: 'add', description: 'Adds.', effect: 'read', input: schema, execute: add });
/** The same tool with loop hints in use: its result is JSON with a volatile field the guard leaves out. */
let stamp = 0;
const hintedTool = defineTool({
  name: 'add',
  description: 'Adds.',
  effect: 'read',
  input: schema,
  execute: (args: { a: number; b: number }) => ({ ...add(args), stamp: stamp++ }),
  loop: { ignoreFields: ['stamp'], unordered: true },
});
const USER: readonly Message[] = [{ role: 'user', content: 'add them all' }];
const USAGE = { inputTokens: 10, outputTokens: 5 };
const ANSWER: ModelResponse = { message: { role: 'assistant', content: 'done' }, usage: USAGE };
const NO_TOOLS: readonly ToolSpec[] = [];

interface Request {
  readonly rounds: number;
  readonly guard?: boolean;
  /** Calls per round (default 1); `b` is offset per call so every call and every result is new. */
  readonly calls?: number;
  /** Runs inside the last tool round's model call, while the loop and its history are live. */
  readonly atLastRound?: () => void;
  /** Session store the guard state is saved to at the end of the request. */
  readonly store?: MemoryStore;
  /** Listen to every loop event (each one read), as a streaming caller would. */
  readonly listen?: boolean;
  /** The tool with loop hints instead of the plain one. */
  readonly hinted?: boolean;
}

/**
 * A scripted model: `rounds` rounds of `add` calls, then a final answer. Arguments (and so results)
 * differ every round, so the guard sees progress and never stops it. Unlike `ScriptedModel` it records
 * nothing (ScriptedModel copies the history on every call): the model's own bookkeeping is not measured.
 */
function benchModel({ rounds, calls = 1, atLastRound }: Request): GeneratingModel {
  let index = 0;
  return {
    async generate() {
      index++;
      if (index > rounds) return ANSWER;
      if (index === rounds) atLastRound?.();
      const toolCalls = Array.from({ length: calls }, (_, j) => ({
        id: `c${index}_${j}`,
        name: 'add',
        arguments: `{"a": ${index}, "b": ${1 + j * 1_000_000}}`,
      }));
      const message: AssistantMessage = { role: 'assistant', content: '', toolCalls };
      return { message, usage: USAGE };
    },
  };
}

/** One request through `runToolLoop` (guards on unless told), the chain's call limits lifted for `add`. */
async function loopRequest(request: Request): Promise<void> {
  const { rounds, guard = true, calls = 1, store, listen = false, hinted = false } = request;
  let events = 0;
  const outcome = await runToolLoop({
    model: benchModel(request),
    messages: USER,
    // A runtime per request, as the one-off form built before the policy moved onto the runtime.
    runtime: createToolRuntime({
      tools: [hinted ? hintedTool : tool],
      limits: { exclude: ['add'] },
      ...(store === undefined ? {} : { store }),
    }),
    maxRoundTrips: rounds + 1,
    ...(guard ? {} : { guard: false as const }),
    ...(store === undefined ? {} : { sessionId: 'bench' }),
    ...(listen ? { onEvent: (event: RunEvent) => (events += event.type.length > 0 ? 1 : 0) } : {}),
  });
  if (outcome.type !== 'completed' || outcome.toolCalls !== rounds * calls) {
    throw new Error(`the benchmark request did not complete: ${outcome.type}`);
  }
  if (listen && events < 4 * rounds) throw new Error(`the benchmark request saw only ${events} events`);
}

/**
 * The loop of an earlier build (`TOOLWARDEN_BASELINE`: its dist folder, whose loop took the policy itself),
 * with the same requests: guard off, guards on, the hinted tool, every event read. Both builds run the same
 * variety in this process, so neither's call sites are left simpler than the other's.
 */
async function baselineLoop(dist: string): Promise<(request: Request) => Promise<void>> {
  const old = await import(`${dist}/index.js`);
  const oldTool = old.defineTool({
    name: 'add',
    description: 'Adds.',
    effect: 'read',
    input: schema,
    execute: add,
  });
  const oldHinted = old.defineTool({
    name: 'add',
    description: 'Adds.',
    effect: 'read',
    input: schema,
    execute: (args: { a: number; b: number }) => ({ ...add(args), stamp: stamp++ }),
    loop: { ignoreFields: ['stamp'], unordered: true },
  });
  return async (request) => {
    const { rounds, guard = true, listen = false, hinted = false } = request;
    let events = 0;
    const outcome = await old.runToolLoop({
      model: benchModel({ rounds }),
      messages: USER,
      tools: [hinted ? oldHinted : oldTool],
      maxRoundTrips: rounds + 1,
      limits: { exclude: ['add'] },
      ...(guard ? {} : { guard: false }),
      ...(listen ? { onEvent: (event: RunEvent) => (events += event.type.length > 0 ? 1 : 0) } : {}),
    });
    if (outcome.type !== 'completed')
      throw new Error(`the baseline request did not complete: ${outcome.type}`);
    if (listen && events < 4 * rounds) throw new Error(`the baseline request saw only ${events} events`);
  };
}

/** The least a tool loop must do: call the model, parse the arguments, call the tool, stringify, push. */
async function floorRequest(rounds: number): Promise<void> {
  const model = benchModel({ rounds });
  const signal = new AbortController().signal;
  const messages: Message[] = [...USER];
  for (;;) {
    const { message } = await model.generate({ messages, tools: NO_TOOLS, signal });
    messages.push(message);
    const calls = message.toolCalls ?? [];
    if (calls.length === 0) break;
    for (const call of calls) {
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
  if (messages.length !== 2 * rounds + 2) throw new Error('the floor request went wrong');
}

/** For reference: the floor with the execution chain in place of parse + call + stringify. */
const runtime = createToolRuntime({ tools: [tool], limits: { exclude: ['add'] } });
async function chainFloorRequest(rounds: number): Promise<void> {
  const model = benchModel({ rounds });
  const signal = new AbortController().signal;
  let messages: readonly Message[] = USER;
  for (;;) {
    const { message } = await model.generate({ messages, tools: NO_TOOLS, signal });
    if ((message.toolCalls ?? []).length === 0) break;
    messages = (await runtime.executeToolCalls({ messages, response: message })).messages;
  }
  if (messages.length !== 2 * rounds + 1) throw new Error('the chain floor request went wrong');
}

/** A subject whose operation is one round: `run(n)` runs n / rounds requests of `rounds` rounds. */
function perRound(name: string, rounds: number, request: (rounds: number) => Promise<void>): Subject {
  return {
    name,
    async run(n) {
      for (let done = 0; done < n; done += rounds) await request(rounds);
    },
  };
}

/**
 * Heap used after 16 forced GCs spread over timer ticks: enough for V8 to drop the bytecode of functions
 * that no longer run (it does so only after several GCs, and would otherwise do it during the measured
 * request, by hundreds of KiB) and for a finished request to become unreachable.
 */
async function quietHeap(): Promise<number> {
  for (let i = 0; i < 8; i++) {
    settledHeap();
    await flush();
  }
  return settledHeap();
}

/**
 * Heap growth of one long request, history included: read after a forced GC inside the last round's
 * model call (the loop live), minus the heap before. A finished request stays reachable until the next
 * macrotask, so the baseline is read by `quietHeap`.
 */
/** Median of 5 samples: a single one is sometimes thrown off (even negative) by what a GC had left. */
async function liveHeapGrowth(rounds: number, guard: boolean): Promise<number> {
  const samples: number[] = [];
  for (let sample = 0; sample < 5; sample++) {
    const before = await quietHeap();
    let during = 0;
    await loopRequest({ rounds, guard, atLastRound: () => (during = settledHeap()) });
    samples.push(during - before);
  }
  return median(samples);
}

interface GuardStateSize {
  readonly windowRounds: number;
  readonly records: number;
  readonly jsonBytes: number;
  readonly heapBytes: number;
}

/**
 * The guard's own memory, without the history: the state the request leaves in its session store (the
 * same object the loop held, saved as JSON). Its heap size is measured on 400 parsed copies kept alive at
 * once (heap with them minus without, over 400), which drowns the GC's noise.
 */
async function guardStateAfter(rounds: number, calls: number): Promise<GuardStateSize> {
  const store = new MemoryStore();
  await loopRequest({ rounds, calls, store });
  const state = (await store.get(storeKey('bench', 'guard')))?.value as { window: { calls: unknown[] }[] };
  const json = JSON.stringify(state);
  const copiesCount = 400;
  const before = await quietHeap();
  const copies = Array.from({ length: copiesCount }, () => JSON.parse(json) as unknown);
  const after = settledHeap();
  if (copies.length !== copiesCount) throw new Error('unreachable');
  return {
    windowRounds: state.window.length,
    records: state.window.reduce((total, round) => total + round.calls.length, 0),
    jsonBytes: json.length,
    heapBytes: (after - before) / copiesCount,
  };
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

async function timeSection(): Promise<string[]> {
  const floor = perRound('floor loop (generate, JSON.parse, call, JSON.stringify, push)', 50, floorRequest);
  const chainFloor = perRound('hand loop over runtime.executeToolCalls (reference)', 50, chainFloorRequest);
  const loopOff = perRound('runToolLoop, guard: false (reference)', 50, (rounds) =>
    loopRequest({ rounds, guard: false }),
  );
  const loop = perRound('runToolLoop, guards on', 50, (rounds) => loopRequest({ rounds }));
  const hinted = perRound(
    'runToolLoop, guards on, a tool with loop hints (JSON result, ignored field)',
    50,
    (rounds) => loopRequest({ rounds, hinted: true }),
  );
  const listened = perRound('runToolLoop, guards on, every event read (reference)', 50, (rounds) =>
    loopRequest({ rounds, listen: true }),
  );
  const dist = process.env.TOOLWARDEN_BASELINE;
  const oldLoop = dist ? await baselineLoop(dist) : undefined;
  const old =
    oldLoop === undefined
      ? []
      : [
          perRound('the baseline build: runToolLoop, guards on', 50, (rounds) => oldLoop({ rounds })),
          perRound('the baseline build: guard: false (reference)', 50, (rounds) =>
            oldLoop({ rounds, guard: false }),
          ),
          perRound('the baseline build: a tool with loop hints (reference)', 50, (rounds) =>
            oldLoop({ rounds, hinted: true }),
          ),
          perRound('the baseline build: every event read (reference)', 50, (rounds) =>
            oldLoop({ rounds, listen: true }),
          ),
        ];
  const subjects = [floor, chainFloor, loopOff, loop, hinted, listened, ...old];
  const overhead = await compare(subjects, { rounds: 15, operations: 2_000, warmup: 2_000 });
  const loopRatio = overhead.ratios[loop.name] ?? Number.NaN;
  const hintedRatio = overhead.ratios[hinted.name] ?? Number.NaN;
  const guardAlone =
    (overhead.medians[loop.name] ?? Number.NaN) - (overhead.medians[loopOff.name] ?? Number.NaN);
  const againstOld = old[0] === undefined ? undefined : overhead.between(loop.name, old[0].name);

  const bySize = [10, 50, 200].map((size) =>
    perRound(`runToolLoop, ${size} rounds per request`, size, (rounds) => loopRequest({ rounds })),
  );
  const growth = await compare(bySize, { rounds: 15, operations: 2_000, warmup: 2_000 });
  const ratio200 = growth.ratios[bySize[2]?.name ?? ''] ?? Number.NaN;
  return [
    '### Tool loop: cost per round (median of 15 interleaved rounds x 2,000 rounds; 1 call per round)',
    '',
    formatRow(['subject (50 rounds per request)', 'µs per round', 'ratio to floor']),
    formatRow(['---', '---', '---']),
    ...subjects.map((s) => formatRow([s.name, overhead.medians[s.name] ?? 0, overhead.ratios[s.name] ?? 0])),
    '',
    `Target: runToolLoop (guards on) <= 3x the floor: ${loopRatio.toFixed(2)}x, ${verdict(loopRatio <= 3)}; with loop hints in use: ${hintedRatio.toFixed(2)}x, ${verdict(hintedRatio <= 3)}.`,
    `The guard alone (guards on minus guard: false, side by side): ${guardAlone.toFixed(2)} µs per round.`,
    ...(againstOld === undefined
      ? []
      : [
          `Target: the loop <= 1.1x the baseline build's, side by side: ${againstOld.toFixed(2)}x, ${verdict(againstOld <= 1.1)}.`,
        ]),
    '',
    formatRow(['subject', 'µs per round', 'ratio to 10 rounds']),
    formatRow(['---', '---', '---']),
    ...bySize.map((s) => formatRow([s.name, growth.medians[s.name] ?? 0, growth.ratios[s.name] ?? 0])),
    '',
    `Target: 200/10 < 1.5: ${ratio200.toFixed(2)}, ${verdict(ratio200 < 1.5)}.`,
  ];
}

async function allocationSection(): Promise<string[]> {
  const loop10 = await allocatedBytes(() => loopRequest({ rounds: 10 }));
  const loop60 = await allocatedBytes(() => loopRequest({ rounds: 60 }));
  const off10 = await allocatedBytes(() => loopRequest({ rounds: 10, guard: false }));
  const off60 = await allocatedBytes(() => loopRequest({ rounds: 60, guard: false }));
  const floor10 = await allocatedBytes(() => floorRequest(10));
  const floor60 = await allocatedBytes(() => floorRequest(60));
  const marginal = (loop60 - loop10) / 50;
  return [
    'Bytes allocated per round: heap delta around one request during which no GC ran (checked with a gc',
    'PerformanceObserver), median of 21 clean samples, less an empty run. Marginal = (60-round request',
    '- 10-round request) / 50, i.e. without the per-request setup.',
    '',
    formatRow(['subject', 'KiB per round (60-round request)', 'KiB per round, marginal']),
    formatRow(['---', '---', '---']),
    formatRow(['floor loop', kib(floor60 / 60), kib((floor60 - floor10) / 50)]),
    formatRow(['runToolLoop, guard: false', kib(off60 / 60), kib((off60 - off10) / 50)]),
    formatRow(['runToolLoop, guards on', kib(loop60 / 60), kib(marginal)]),
    '',
    `Target: < 10 KiB per round with guards on: ${verdict(marginal < 10 * 1024 && loop60 / 60 < 10 * 1024)}.`,
  ];
}

async function heapSection(): Promise<string[]> {
  const window = defaults.DEFAULT_GUARD_WINDOW_ROUNDS;
  const perRoundCalls = defaults.DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND;
  // Warm-up: code and inline caches of long requests are allocated before the first baseline.
  await loopRequest({ rounds: 2_000 });
  await loopRequest({ rounds: 2_000, guard: false });
  const whole: string[] = [];
  for (const rounds of [1_000, 10_000]) {
    const on = await liveHeapGrowth(rounds, true);
    const off = await liveHeapGrowth(rounds, false);
    whole.push(formatRow([rounds.toLocaleString('en'), kib(on), kib(off), (on / rounds).toFixed(0)]));
  }
  const states: Array<[string, GuardStateSize]> = [];
  for (const [rounds, calls] of [
    [100, 1],
    [1_000, 1],
    [10_000, 1],
    [1_000, 20],
  ] as const) {
    states.push([`${rounds.toLocaleString('en')} x ${calls}`, await guardStateAfter(rounds, calls)]);
  }
  const bound = window * perRoundCalls;
  const worst = Math.max(...states.map(([, size]) => size.heapBytes));
  return [
    'Heap of one request while it runs (forced GC inside the last round; median of 5 requests), history',
    'included: the history, steps and results grow with the rounds by design.',
    '',
    formatRow(['rounds', 'heap growth, guards on (KiB)', 'guard: false (KiB)', 'B per round, guards on']),
    formatRow(['---', '---', '---', '---']),
    ...whole,
    '',
    `The guard alone, read from its session store at the end of the request. Bound: a window of ${window}`,
    `rounds x ${perRoundCalls} calls remembered per round = ${bound} call records, whatever the number of rounds.`,
    '',
    formatRow(['rounds x calls per round', 'rounds kept', 'call records', 'JSON bytes', 'heap (KiB)']),
    formatRow(['---', '---', '---', '---', '---']),
    ...states.map(([label, size]) =>
      formatRow([
        label,
        String(size.windowRounds),
        String(size.records),
        String(size.jsonBytes),
        kib(size.heapBytes),
      ]),
    ),
    '',
    `Guard within its bound (<= ${bound} records): ${states.every(([, size]) => size.records <= bound) ? 'yes' : 'NO'}; largest guard state ${kib(worst)} KiB.`,
  ];
}

/** Resuming a saved 50-round run from its JSON: parse, check, restore, and the one round that finishes it. */
async function resumeSection(): Promise<string[]> {
  const stopped = await runToolLoop({
    model: benchModel({ rounds: 60 }),
    messages: USER,
    runtime: createToolRuntime({ tools: [tool], limits: { exclude: ['add'] } }),
    maxRoundTrips: 50,
  });
  if (stopped.type !== 'stopped' || stopped.roundTrips !== 50)
    throw new Error('the 50-round run did not stop at 50');
  const json = JSON.stringify(stopped.state);
  const answer: Model = { generate: async () => ANSWER };
  const resume: Subject = {
    name: 'runToolLoop from the JSON of a 50-round run (to its last round)',
    async run(n) {
      for (let i = 0; i < n; i++) {
        const outcome = await runToolLoop({ from: json, model: answer, tools: [tool], maxRoundTrips: 60 });
        if (outcome.type !== 'completed') throw new Error('the resumed run did not complete');
      }
    },
  };
  const { medians } = await compare([resume], { rounds: 15, operations: 200, warmup: 200 });
  return [
    formatRow(['subject', 'JSON bytes', 'µs per resume']),
    formatRow(['---', '---', '---']),
    formatRow([resume.name, String(json.length), medians[resume.name] ?? 0]),
  ];
}

export async function benchLoopOverhead(): Promise<string[]> {
  return [
    ...(await timeSection()),
    '',
    ...(await resumeSection()),
    '',
    ...(await allocationSection()),
    '',
    ...(await heapSection()),
  ];
}
