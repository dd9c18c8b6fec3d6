import { z } from 'zod';
import { type AnyTool, createToolRuntime, defineTool, type Message } from '../dist/index.js';
import { assistantWithCalls } from '../dist/testing/index.js';
import { createToolRegistry } from '../dist/tools/tool-registry.js';
import { compare, formatRow, type Subject } from './measure.js';

/** The target: output validation (precompiled) adds less than this to a call with a small object result. */
const TARGET_RATIO = 1.3;

const input = {
  type: 'object',
  properties: { orderId: { type: 'string' } },
  required: ['orderId'],
  additionalProperties: false,
} as const;
const output = {
  type: 'object',
  properties: {
    orderId: { type: 'string' },
    status: { type: 'string', enum: ['SUCCESS', 'FAILED'] },
    amountCents: { type: 'integer', minimum: 0 },
  },
  required: ['orderId', 'status', 'amountCents'],
  additionalProperties: false,
} as const;
const outputZod = z.strictObject({
  orderId: z.string(),
  status: z.enum(['SUCCESS', 'FAILED']),
  amountCents: z.number().int().min(0),
});
/** A small object result, as most tools return. */
const execute = ({ orderId }: { orderId: string }) => ({ orderId, status: 'SUCCESS', amountCents: 1250 });
const messages: readonly Message[] = [{ role: 'user', content: 'status of order 42?' }];
const response = assistantWithCalls([{ name: 'queryOrderStatus', arguments: '{"orderId": "42"}' }]);

/** The chain as production code runs it (a runtime over a registry), with the given tool. */
function chain(name: string, tool: AnyTool): Subject {
  const runtime = createToolRuntime({ tools: createToolRegistry([tool]) });
  return {
    name,
    async run(n) {
      for (let i = 0; i < n; i++) {
        const result = await runtime.executeToolCalls({ messages, response });
        // A rejected result would be an error: the contract must pass for the cost to be comparable.
        if (result.results[0]?.type !== 'success') throw new Error('the benchmark call failed');
      }
    },
  };
}

/** The validator alone, as the chain calls it on each result. */
function validatorOnly(name: string, tool: AnyTool): Subject {
  const validate = tool.validateOutput;
  if (validate === undefined) throw new Error(`${name}: no output contract`);
  const value = execute({ orderId: '42' });
  return {
    name,
    async run(n) {
      for (let i = 0; i < n; i++) {
        // Awaited, as the chain awaits it (a Standard Schema's validator answers with a promise).
        const outcome = await validate(value);
        if (!outcome.ok) throw new Error('the benchmark value must pass');
      }
    },
  };
}

const base = {
  name: 'queryOrderStatus',
  description: 'Order status.',
  effect: 'read',
  input,
  execute,
} as const;

export async function benchOutputContract(): Promise<string[]> {
  const withJsonSchema = defineTool({ ...base, output });
  const withZod = defineTool({ ...base, output: outputZod });
  const subjects = [
    chain('chain, no output contract', defineTool(base)),
    chain('chain + output contract (JSON Schema, precompiled by Ajv)', withJsonSchema),
    chain('chain + output contract (zod 4, Standard Schema)', withZod),
  ];
  const { medians, ratios } = await compare(subjects, { rounds: 15, operations: 3_000, warmup: 5_000 });
  const alone = [validatorOnly('JSON Schema (Ajv)', withJsonSchema), validatorOnly('zod 4', withZod)];
  const validators = await compare(alone, { rounds: 15, operations: 100_000, warmup: 100_000 });
  const precompiled = ratios[subjects[1]?.name ?? ''] ?? Number.NaN;
  return [
    '### Output contracts: cost per tool call (median of 15 interleaved rounds x 3,000 calls)',
    '',
    formatRow(['subject', 'µs per call', 'ratio to no contract']),
    formatRow(['---', '---', '---']),
    ...subjects.map((s) => formatRow([s.name, medians[s.name] ?? 0, ratios[s.name] ?? 0])),
    '',
    formatRow(['output validator alone, same result (awaited, as the chain awaits it)', 'ns per call']),
    formatRow(['---', '---']),
    ...alone.map((s) => formatRow([s.name, (validators.medians[s.name] ?? 0) * 1000])),
    '',
    `Precompiled output validation: ${precompiled.toFixed(2)}x the chain without a contract (target < ${TARGET_RATIO}x: ${
      precompiled < TARGET_RATIO ? 'met' : 'NOT met'
    }).`,
  ];
}
