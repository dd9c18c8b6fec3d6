import { Ajv } from 'ajv';
import { createToolRuntime, defineTool, type Message, type ToolEvent } from '../dist/index.js';
import { assistantWithCalls } from '../dist/testing/index.js';
import { createToolRegistry } from '../dist/tools/tool-registry.js';
import { add, addSchema } from './add-tool.js';
import { compare, formatRow, type Subject, settledHeap } from './measure.js';

const schema = addSchema;
const argumentsText = '{"a": 20, "b": 22}';
const messages: readonly Message[] = [{ role: 'user', content: 'add 20 and 22' }];
const response = assistantWithCalls([{ name: 'add', arguments: argumentsText }]);

/** The least any executor must do: parse, validate with a precompiled schema, call, stringify. */
function floor(): Subject {
  const validate = new Ajv().compile(schema);
  let sink = 0;
  return {
    name: 'floor (parse + validate + call + stringify)',
    async run(n) {
      for (let i = 0; i < n; i++) {
        const args = JSON.parse(argumentsText) as { a: number; b: number };
        if (!validate(args)) throw new Error('invalid');
        sink += JSON.stringify(await add(args)).length;
      }
      if (sink < 0) throw new Error('unreachable');
    },
  };
}

/** The chain as production code runs it: a runtime (policy resolved once) over a registry. */
function chain(): Subject {
  const tool = defineTool({ name: 'add', description: 'Adds.', effect: 'read', input: schema, execute: add });
  const runtime = createToolRuntime({ tools: createToolRegistry([tool]) });
  let events = 0;
  const onEvent = (event: ToolEvent) => {
    events += event.argumentsSummary.length > 0 ? 1 : 0;
  };
  return {
    name: 'runtime.executeToolCalls (events read, redaction on)',
    async run(n) {
      for (let i = 0; i < n; i++) {
        const result = await runtime.executeToolCalls({ messages, response, onEvent });
        if (result.results[0]?.type !== 'success') throw new Error('the benchmark call failed');
      }
      if (events === 0 && n > 0) throw new Error('no events');
    },
  };
}

/** The chain of an earlier build (`TOOLWARDEN_BASELINE`: its dist folder), measured side by side. */
async function baselineChain(dist: string): Promise<Subject> {
  const old = await import(`${dist}/index.js`);
  const tool = old.defineTool({
    name: 'add',
    description: 'Adds.',
    effect: 'read',
    input: schema,
    execute: add,
  });
  let events = 0;
  const onEvent = (event: ToolEvent) => {
    events += event.argumentsSummary.length > 0 ? 1 : 0;
  };
  // A build with the runtime (issue 8 and later), or one with the manager before it.
  const execute =
    typeof old.createToolRuntime === 'function'
      ? (() => {
          const runtime = old.createToolRuntime({ tools: [tool] });
          return () => runtime.executeToolCalls({ messages, response, onEvent });
        })()
      : (() => {
          const registry = old.createToolRegistry([tool]);
          const manager = old.createToolCallingManager({ onEvent });
          return () => manager.executeToolCalls({ messages, response, tools: registry });
        })();
  return {
    name: 'the baseline build: executeToolCalls (events read)',
    async run(n) {
      for (let i = 0; i < n; i++) {
        const result = await execute();
        if (result.results[0]?.type !== 'success') throw new Error('the baseline call failed');
      }
      if (events === 0 && n > 0) throw new Error('no events');
    },
  };
}

/** One more call in a turn that already has `prior` calls: the turn is counted from the history each time. */
async function inTurn(prior: number): Promise<Subject> {
  const tool = defineTool({ name: 'add', description: 'Adds.', effect: 'read', input: schema, execute: add });
  const runtime = createToolRuntime({ tools: [tool], limits: { perTool: 100_000, total: 100_000 } });
  let history: readonly Message[] = messages;
  for (let i = 0; i < prior; i++) {
    const call = assistantWithCalls([{ name: 'add', arguments: argumentsText, id: `p${i}` }]);
    history = (await runtime.executeToolCalls({ messages: history, response: call })).messages;
  }
  return {
    name: `runtime.executeToolCalls, ${prior} prior calls in the turn`,
    async run(n) {
      for (let i = 0; i < n; i++) {
        const result = await runtime.executeToolCalls({ messages: history, response });
        if (result.results[0]?.type !== 'success') throw new Error('the benchmark call failed');
      }
    },
  };
}

export async function benchChainOverhead(): Promise<string[]> {
  const baseline = process.env.TOOLWARDEN_BASELINE;
  const subjects = [floor(), chain(), ...(baseline ? [await baselineChain(baseline)] : [])];
  const { medians, ratios, between } = await compare(subjects, {
    rounds: 15,
    operations: 3_000,
    warmup: 5_000,
  });
  const lines = [
    '### Execution chain: cost per tool call (median of 15 interleaved rounds x 3,000 calls)',
    '',
    formatRow(['subject', 'µs per call', 'ratio to floor']),
    formatRow(['---', '---', '---']),
    ...subjects.map((s) => formatRow([s.name, medians[s.name] ?? 0, ratios[s.name] ?? 0])),
  ];
  const runtimeRatio = ratios[(subjects[1] as Subject).name] ?? Number.NaN;
  lines.push(
    '',
    `Target: the chain (runtime form) <= 3.5x the floor: ${runtimeRatio.toFixed(2)}x, ${runtimeRatio <= 3.5 ? 'met' : 'NOT met'}.`,
  );
  if (baseline) {
    const against = between((subjects[1] as Subject).name, (subjects[2] as Subject).name);
    lines.push(
      `Target: the runtime form <= 1.1x the baseline build's, side by side: ${against.toFixed(2)}x, ${against <= 1.1 ? 'met' : 'NOT met'}.`,
    );
  }
  const turns = [await inTurn(10), await inTurn(500)];
  const turn = await compare(turns, { rounds: 15, operations: 1_000, warmup: 1_000 });
  const growth =
    (turn.medians[(turns[1] as Subject).name] ?? 0) / (turn.medians[(turns[0] as Subject).name] ?? 1);
  lines.push(
    '',
    '### One more call in a long turn (median of 15 interleaved rounds x 1,000 calls)',
    '',
    formatRow(['subject', 'µs per call']),
    formatRow(['---', '---']),
    ...turns.map((s) => formatRow([s.name, turn.medians[s.name] ?? 0])),
    '',
    `500 / 10 prior calls: ${growth.toFixed(2)} (each call walks the turn's history back to its user message).`,
  );
  const chainSubject = subjects[1] as Subject;
  await chainSubject.run(1_000);
  const before = settledHeap();
  await chainSubject.run(100_000);
  const after = settledHeap();
  lines.push(
    '',
    `Heap over 100,000 chain calls (forced GC): before ${(before / 1024 / 1024).toFixed(2)} MiB, after ${(after / 1024 / 1024).toFixed(2)} MiB, growth ${((after - before) / 1024).toFixed(0)} KiB (target: flat).`,
  );
  return lines;
}
