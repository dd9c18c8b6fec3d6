import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { guardTools } from '../dist/adapters/ai-sdk/index.js';
import { compare, formatRow, type Subject } from './measure.js';

/** Tool-call steps per generateText loop, then a text answer. */
const STEPS = 10;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

const addSchema = jsonSchema<{ a: number; b: number }>({
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
});
const tools: ToolSet = {
  add: tool({ description: 'Adds.', inputSchema: addSchema, execute: async ({ a, b }) => ({ sum: a + b }) }),
};

/** A mock model: STEPS rounds of one `add` call with new arguments (no loop), then an answer. */
function model(): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (): Promise<LanguageModelV3GenerateResult> => {
      step++;
      if (step > STEPS) {
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          { type: 'tool-call', toolCallId: `call_${step}`, toolName: 'add', input: `{"a":${step},"b":2}` },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

async function plainLoop(): Promise<void> {
  const result = await generateText({
    model: model(),
    tools,
    stopWhen: stepCountIs(STEPS + 1),
    prompt: 'add',
  });
  if (result.text !== 'done') throw new Error(`plain loop ended with ${JSON.stringify(result.text)}`);
}

async function guardedLoop(): Promise<void> {
  const guarded = guardTools(tools);
  const result = await generateText({
    model: model(),
    tools: guarded.tools,
    stopWhen: [stepCountIs(STEPS + 1), guarded.stopWhen],
    prepareStep: guarded.prepareStep,
    prompt: 'add',
  });
  if (result.text !== 'done') throw new Error(`guarded loop ended with ${JSON.stringify(result.text)}`);
}

/**
 * A `generateText` loop of STEPS tool-call steps and an answer, over the AI SDK's mock model: plain AI SDK
 * tools against the same tools through `guardTools` (the chain in each execute, the guard as stopWhen and
 * prepareStep), side by side. The target: the guarded loop at most 1.1x the plain one.
 */
export async function benchGuardTools(): Promise<string[]> {
  const subjects: Subject[] = [
    {
      name: 'generateText, plain AI SDK tools',
      run: async (n) => {
        for (let i = 0; i < n; i++) await plainLoop();
      },
    },
    {
      name: 'generateText, guardTools (chain + loop guard)',
      run: async (n) => {
        for (let i = 0; i < n; i++) await guardedLoop();
      },
    },
  ];
  const { medians, ratios } = await compare(subjects, { rounds: 15, operations: 100, warmup: 100 });
  const [plain, guarded] = subjects.map((subject) => subject.name) as [string, string];
  const perStep = (name: string) => (medians[name] ?? Number.NaN) / (STEPS + 1);
  const ratio = ratios[guarded] ?? Number.NaN;
  return [
    `#### AI SDK tools guarded in place: a generateText loop of ${STEPS} tool steps and an answer (median of 15 interleaved rounds x 100 loops)`,
    '',
    formatRow(['loop', 'µs per loop', 'µs per step', 'ratio to plain', 'target']),
    formatRow(['---', '---', '---', '---', '---']),
    formatRow([plain, medians[plain] ?? 0, perStep(plain), 1, '—']),
    formatRow([
      guarded,
      medians[guarded] ?? 0,
      perStep(guarded),
      ratio,
      `<= 1.1x: ${ratio <= 1.1 ? 'PASS' : 'MISS'}`,
    ]),
    '',
    `Added by guardTools: ${(perStep(guarded) - perStep(plain)).toFixed(2)} µs per step.`,
  ];
}
