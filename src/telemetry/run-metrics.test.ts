import { createNoopMeter } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import type { ContractViolationPolicy } from '../tools/define-tool.js';
import { defineTool } from '../tools/define-tool.js';
import { instrumented } from './__fixtures__/instrumented.js';
import { type OtelTestSdk, startOtelTestSdk } from './__fixtures__/otel-test-sdk.js';
import { otelInstrumentation } from './otel-instrumentation.js';
import { OTEL_NAMES } from './otel-names.js';
import { createRunMetrics } from './run-metrics.js';

const attr = OTEL_NAMES.attributes;

// The run metrics issue 12 names beyond the first set: calls and their repeats (the hit rate), contract
// violations by tool, and decisions given on resume. Names are written out, so a renamed constant fails.

const USER: readonly Message[] = [{ role: 'user', content: 'Find order 7.' }];
const DONE = { role: 'assistant' as const, content: 'done' };

let sdk: OtelTestSdk;
beforeEach(() => {
  sdk = startOtelTestSdk();
});
afterEach(() => sdk.shutdown());

const search = defineTool({
  name: 'search',
  description: 'Searches orders.',
  effect: 'read',
  execute: (args: { q: string; n?: number }) => `found ${args.q}`,
});

function otel() {
  return otelInstrumentation({ tracer: sdk.tracer, meter: sdk.meter });
}

describe('toolwarden.tool.calls and toolwarden.fingerprint.repeats', () => {
  it('counts every call, and the calls that repeat an earlier one of the run (keys reordered, whitespace)', async () => {
    const model = new ScriptedModel({
      script: [
        assistantWithCalls([
          { name: 'search', arguments: '{"q":"a","n":1}', id: 'c1' },
          { name: 'search', arguments: '{"n":1,"q":"a"}', id: 'c2' },
        ]),
        assistantWithCalls([{ name: 'search', arguments: '{"q":"b"}', id: 'c3' }]),
        assistantWithCalls([{ name: 'search', arguments: '{ "q" : "a",\n "n" : 1 }', id: 'c4' }]),
        DONE,
      ],
    });
    const outcome = await runToolLoop({
      model,
      ...instrumented([search], otel()),
      messages: USER,
      guard: false,
    });
    expect(outcome.type).toBe('completed');
    expect(await sdk.metricPoints('toolwarden.tool.calls')).toEqual([
      expect.objectContaining({ attributes: {}, value: 4 }),
    ]);
    // c2 repeats c1 in the same response, c4 repeats it two rounds later: a hit rate of 2 / 4.
    expect(await sdk.metricPoints('toolwarden.fingerprint.repeats')).toEqual([
      expect.objectContaining({ attributes: {}, value: 2 }),
    ]);
  });

  it('records both at zero for a run without calls, so the hit rate has its two series', async () => {
    await runToolLoop({
      model: new ScriptedModel({ script: [DONE] }),
      ...instrumented([search], otel()),
      messages: USER,
    });
    expect(await sdk.metricPoints('toolwarden.tool.calls')).toMatchObject([{ value: 0 }]);
    expect(await sdk.metricPoints('toolwarden.fingerprint.repeats')).toMatchObject([{ value: 0 }]);
  });
});

describe('toolwarden.contract.violations', () => {
  const drifted = { code: 0, data: { state: 'PAID' } };
  function statusTool(policy: ContractViolationPolicy) {
    return defineTool<{ id: string }, unknown>({
      name: 'orderStatus',
      description: 'The status of an order: SUCCESS or FAILED.',
      effect: 'read',
      output: {
        type: 'object',
        properties: { status: { type: 'string', enum: ['SUCCESS', 'FAILED'] } },
        required: ['status'],
      },
      onContractViolation: policy,
      execute: () => drifted,
    });
  }

  it.each([
    ['feedback', 'error'],
    ['warn', 'success'],
    ['throw', 'error'],
  ] as const)(
    'counts a result that broke the contract under %s, by tool, and marks its span',
    async (policy, type) => {
      const model = new ScriptedModel({
        script: [
          assistantWithCalls([
            { name: 'orderStatus', arguments: { id: '1' }, id: 's1' },
            { name: 'orderStatus', arguments: { id: '2' }, id: 's2' },
          ]),
          DONE,
        ],
      });
      const outcome = await runToolLoop({
        model,
        ...instrumented([statusTool(policy)], otel()),
        messages: USER,
      });
      expect(outcome.toolResults.map((result) => [result.type, result.contractViolation])).toEqual([
        [type, true],
        [type, true],
      ]);
      if (policy === 'throw') expect(outcome).toMatchObject({ type: 'stopped', reason: 'TOOL_FATAL' });
      expect(await sdk.metricPoints('toolwarden.contract.violations')).toEqual([
        expect.objectContaining({ attributes: { [attr.toolName]: 'orderStatus' }, value: 2 }),
      ]);
      const spans = sdk.exporter
        .getFinishedSpans()
        .filter((span) => span.name === 'execute_tool orderStatus');
      expect(spans.map((span) => span.attributes['toolwarden.contract.violation'])).toEqual([true, true]);
    },
  );

  it('counts nothing, and marks no span, for results that keep the contract', async () => {
    const kept = defineTool<{ id: string }, unknown>({
      name: 'orderStatus',
      description: 'The status of an order.',
      effect: 'read',
      output: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
      execute: () => ({ status: 'SUCCESS' }),
    });
    const model = new ScriptedModel({
      script: [assistantWithCalls([{ name: 'orderStatus', arguments: { id: '1' } }]), DONE],
    });
    const outcome = await runToolLoop({
      model,
      ...instrumented([kept], otel()),
      messages: USER,
    });
    expect(outcome.toolResults[0]).not.toHaveProperty('contractViolation');
    expect(await sdk.metricPoints('toolwarden.contract.violations')).toEqual([]);
    expect(JSON.stringify(sdk.exporter.getFinishedSpans().map((span) => span.attributes))).not.toContain(
      'contract',
    );
  });
});

describe('toolwarden.approvals', () => {
  it('counts the decisions given on resume, by decision and tool, through the same spread options', async () => {
    const refund = defineTool({
      name: 'refund',
      description: 'Refunds an order.',
      effect: 'write',
      idempotency: false,
      needsApproval: true,
      execute: (args: { order: string }) => `refunded ${args.order}`,
    });
    const calls = assistantWithCalls([
      { name: 'refund', arguments: { order: 'A-1' }, id: 'r1' },
      { name: 'refund', arguments: { order: 'A-2' }, id: 'r2' },
      { name: 'refund', arguments: { order: 'A-3' }, id: 'r3' },
    ]);
    const instrumentation = otel();
    const paused = await runToolLoop({
      model: new ScriptedModel({ script: [calls] }),
      ...instrumented([refund], instrumentation),
      messages: USER,
    });
    expect(paused.type).toBe('interrupted');
    // Nothing was decided yet: the pause itself is no decision.
    expect(await sdk.metricPoints('toolwarden.approvals')).toEqual([]);
    const done = await runToolLoop({
      from: paused.state,
      model: new ScriptedModel({ script: [DONE] }),
      ...instrumented([refund], instrumentation),
      decisions: { r1: 'run', r2: { approve: false, by: 'alice' }, r3: 'deny' },
    });
    expect(done.type).toBe('completed');
    const points = await sdk.metricPoints('toolwarden.approvals');
    expect(points.map((point) => [point.attributes, point.value])).toEqual(
      expect.arrayContaining([
        [{ 'toolwarden.approval.decision': 'approved', [attr.toolName]: 'refund' }, 1],
        [{ 'toolwarden.approval.decision': 'denied', [attr.toolName]: 'refund' }, 2],
      ]),
    );
    expect(points).toHaveLength(2);
    // The paused run's calls are counted once across the pause: none ran before it, three after.
    const [counted] = await sdk.metricPoints('toolwarden.tool.calls');
    expect(counted?.value).toBe(3);
  });
});

describe('the no-SDK path', () => {
  it("does no work with the API's no-op meter: the run's outcome is not even read", () => {
    const metrics = createRunMetrics(createNoopMeter());
    const untouchable = new Proxy({} as LoopOutcome, {
      get: () => {
        throw new Error('read the outcome');
      },
    });
    expect(() => metrics.recordRun(untouchable)).not.toThrow();
    expect(() => createRunMetrics(sdk.meter).recordRun(untouchable)).toThrow('read the outcome');
  });
});
