import { Ajv } from 'ajv';
import {
  createToolRegistry,
  createToolRuntime,
  defineTool,
  executeToolCalls,
  type Message,
  type ToolEvent,
} from '../dist/index.js';
import { assistantWithCalls } from '../dist/testing/index.js';
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

/** The one-off form: the policy is resolved and a registry built on every call. */
function oneOff(): Subject {
  const tool = defineTool({ name: 'add', description: 'Adds.', effect: 'read', input: schema, execute: add });
  let events = 0;
  return {
    name: 'executeToolCalls with a tool array (one-off form)',
    async run(n) {
      for (let i = 0; i < n; i++) {
        const result = await executeToolCalls({
          messages,
          response,
          tools: [tool],
          onEvent: (event: ToolEvent) => {
            events += event.argumentsSummary.length > 0 ? 1 : 0;
          },
        });
        if (result.results[0]?.type !== 'success') throw new Error('the benchmark call failed');
      }
      if (events === 0 && n > 0) throw new Error('no events');
    },
  };
}

export async function benchChainOverhead(): Promise<string[]> {
  const subjects = [floor(), chain(), oneOff()];
  const { medians, ratios } = await compare(subjects, { rounds: 15, operations: 3_000, warmup: 5_000 });
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
