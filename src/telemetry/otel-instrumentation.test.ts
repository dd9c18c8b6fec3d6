import { type Meter, type Tracer, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chargeTool } from '../chain/idempotency/__fixtures__/charge-tool.js';
import { createToolRuntime } from '../chain/runtime.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import type { Message } from '../core/message.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { instrumented } from './__fixtures__/instrumented.js';
import { type OtelTestSdk, startOtelTestSdk } from './__fixtures__/otel-test-sdk.js';
import { otelInstrumentation } from './otel-instrumentation.js';
import { OTEL_NAMES } from './otel-names.js';

const attr = OTEL_NAMES.attributes;

// SpanKind.INTERNAL and SpanStatusCode.ERROR, as numbers (what a ReadableSpan holds).
const INTERNAL = 0;
const ERROR = 2;

const USER: readonly Message[] = [{ role: 'user', content: 'Look up order 7.' }];
const SECRET = 'hunter2-secret-value';

let sdk: OtelTestSdk;
let exporter: InMemorySpanExporter;
let tracer: Tracer;
let meter: Meter;

beforeEach(() => {
  sdk = startOtelTestSdk();
  ({ exporter, tracer, meter } = sdk);
});

afterEach(() => sdk.shutdown());

function lookupTool() {
  return defineTool({
    name: 'lookup',
    description: 'Looks an order up.',
    effect: 'read',
    execute: (_args: { q: string; password?: string }) =>
      // The tool's own span, started in the active context: it must nest under execute_tool.
      tracer.startActiveSpan('db.query', (span) => {
        span.end();
        return { note: SECRET };
      }),
  });
}

function twoRounds(args: Record<string, unknown>) {
  return new ScriptedModel({
    script: [
      assistantWithCalls([{ name: 'lookup', arguments: args, id: 'c1' }]),
      { role: 'assistant', content: 'done' },
    ],
  });
}

function spanNamed(name: string): ReadableSpan {
  const found = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
}

/** Every finished span's attributes, as one text to search for what must not be there. */
function attributesText(): string {
  return JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes));
}

describe('otelInstrumentation spans', () => {
  it('nests the tool own span under execute_tool, and execute_tool under the run span invoke_agent', async () => {
    const otel = otelInstrumentation({ tracer, meter });
    const outcome = await runToolLoop({
      model: twoRounds({ q: SECRET }),
      ...instrumented([lookupTool()], otel),
      messages: USER,
    });
    expect(outcome.type).toBe('completed');
    const run = spanNamed('invoke_agent');
    const tool = spanNamed('execute_tool lookup');
    const own = spanNamed('db.query');
    expect(run.parentSpanContext).toBeUndefined();
    expect(tool.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(own.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(tool.spanContext().traceId).toBe(run.spanContext().traceId);
    expect(tool.kind).toBe(INTERNAL);
    expect(run.kind).toBe(INTERNAL);
    expect(tool.attributes).toMatchObject({
      [attr.operationName]: 'execute_tool',
      [attr.toolName]: 'lookup',
      [attr.toolCallId]: 'c1',
      [attr.toolType]: 'function',
    });
    expect(tool.status.code).not.toBe(ERROR);
    expect(run.attributes).toMatchObject({
      [attr.operationName]: 'invoke_agent',
      [attr.runOutcome]: 'completed',
      [attr.roundTrips]: 2,
      [attr.usageInputTokens]: outcome.usage.inputTokens,
      [attr.usageOutputTokens]: outcome.usage.outputTokens,
      'toolwarden.run.id': outcome.runId,
    });
    expect(outcome.usage.inputTokens).toBeGreaterThan(0);
  });

  it('nests the same way with a runtime built once: its wrapper to createToolRuntime, the run wrapper to the run', async () => {
    const otel = otelInstrumentation({ tracer, meter });
    const runtime = createToolRuntime({ tools: [lookupTool()], wrapToolExecution: otel.wrapToolExecution });
    await runToolLoop({ model: twoRounds({ q: 'x' }), runtime, messages: USER, wrapRun: otel.wrapRun });
    const tool = spanNamed('execute_tool lookup');
    expect(tool.parentSpanContext?.spanId).toBe(spanNamed('invoke_agent').spanContext().spanId);
    expect(spanNamed('db.query').parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
  });

  it('records neither arguments nor results by default', async () => {
    const otel = otelInstrumentation({ tracer, meter });
    await runToolLoop({
      model: twoRounds({ q: SECRET }),
      ...instrumented([lookupTool()], otel),
      messages: USER,
    });
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBe(3);
    expect(JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events]))).not.toContain(
      'hunter2',
    );
    expect(spanNamed('execute_tool lookup').attributes[attr.toolCallArguments]).toBeUndefined();
  });

  it('records the redacted argument summary with recordContent: true, and still no result', async () => {
    const otel = otelInstrumentation({ tracer, meter, recordContent: true });
    await runToolLoop({
      model: twoRounds({ q: 'order-7', password: SECRET }),
      ...instrumented([lookupTool()], otel),
      messages: USER,
    });
    const recorded = spanNamed('execute_tool lookup').attributes[attr.toolCallArguments];
    expect(typeof recorded).toBe('string');
    expect(recorded).toContain('order-7');
    expect(recorded).toContain('password');
    expect(recorded).not.toContain('hunter2');
    expect(attributesText()).not.toContain('hunter2');
  });

  it('marks a failing call ERROR, with error.type its result code', async () => {
    const failing = defineTool({
      name: 'lookup',
      description: 'Looks an order up.',
      effect: 'read',
      execute: (_args: { q: string }): string => {
        throw new ToolInputError({ message: `no order ${SECRET}` });
      },
    });
    const otel = otelInstrumentation({ tracer, meter });
    const outcome = await runToolLoop({
      model: twoRounds({ q: 'x' }),
      ...instrumented([failing], otel),
      messages: USER,
    });
    const [result] = outcome.toolResults;
    expect(result?.type).toBe('error');
    const span = spanNamed('execute_tool lookup');
    expect(span.status.code).toBe(ERROR);
    expect(span.attributes[attr.errorType]).toBe(result?.type === 'error' ? result.code : 'none');
    expect(span.attributes['toolwarden.error.class']).toBe('invalid-input');
    expect(JSON.stringify([span.status, span.attributes, span.events])).not.toContain('hunter2');
    // The run completed: its span is not an error.
    expect(spanNamed('invoke_agent').status.code).not.toBe(ERROR);
    const durations = await sdk.metricPoints('gen_ai.execute_tool.duration');
    expect(durations.map((point) => point.attributes)).toEqual([
      { [attr.toolName]: 'lookup', [attr.errorType]: span.attributes[attr.errorType] },
    ]);
    expect(await sdk.metricPoints('toolwarden.tool.errors')).toMatchObject([
      { attributes: { 'toolwarden.error.class': 'invalid-input' }, value: 1 },
    ]);
  });

  it('uses the global API when no tracer or meter is given (a no-op without a provider)', async () => {
    const outcome = await runToolLoop({
      model: twoRounds({ q: 'x' }),
      ...instrumented([lookupTool()], otelInstrumentation()),
      messages: USER,
    });
    expect(outcome.type).toBe('completed');
    // Only the tool's own span reached the test provider: toolwarden's went to the global (no-op) tracer.
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['db.query']);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});

describe('otelInstrumentation agent and provider names', () => {
  it('names the run span invoke_agent {agentName}, with gen_ai.agent.name and gen_ai.provider.name', async () => {
    await runToolLoop({
      model: twoRounds({ q: 'x' }),
      ...instrumented(
        [lookupTool()],
        otelInstrumentation({ tracer, meter, agentName: 'support-bot', providerName: 'openai' }),
      ),
      messages: USER,
    });
    const run = spanNamed('invoke_agent support-bot');
    expect(run.attributes).toMatchObject({
      'gen_ai.agent.name': 'support-bot',
      'gen_ai.provider.name': 'openai',
      'gen_ai.operation.name': 'invoke_agent',
    });
    expect(spanNamed('execute_tool lookup').parentSpanContext?.spanId).toBe(run.spanContext().spanId);
  });

  it.each([
    ['an empty agent name', { agentName: '' }],
    ['a blank provider', { providerName: '   ' }],
    ['a name of 201 characters', { agentName: 'a'.repeat(201) }],
    ['a number', { agentName: 7 as unknown as string }],
  ])('refuses %s at once, naming the option', (_, options) => {
    expect(() => otelInstrumentation({ tracer, meter, ...options })).toThrow(
      /Invalid option (agentName|providerName)/,
    );
  });
});

describe('otelInstrumentation without an SDK', () => {
  it('runs the call and the run as they are: no active span is set for the tool (nothing would record it)', async () => {
    let active: unknown = 'not seen';
    const tool = defineTool({
      name: 'lookup',
      description: 'Looks an order up.',
      effect: 'read',
      execute: () => {
        active = trace.getActiveSpan();
        return 'ok';
      },
    });
    // The global API with no provider (a context manager is set: a no-op span would be seen if made active).
    const outcome = await runToolLoop({
      model: twoRounds({ q: 'x' }),
      ...instrumented([tool], otelInstrumentation()),
      messages: USER,
    });
    expect(outcome.type).toBe('completed');
    expect(active).toBeUndefined();
  });

  it('records through the global tracer once an SDK registers a provider, though made before it', async () => {
    const instrumentation = otelInstrumentation();
    const globalExporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(globalExporter)] });
    trace.setGlobalTracerProvider(provider);
    try {
      await runToolLoop({
        model: twoRounds({ q: 'x' }),
        ...instrumented([lookupTool()], instrumentation),
        messages: USER,
      });
      expect(
        globalExporter
          .getFinishedSpans()
          .map((span) => span.name)
          .sort(),
      ).toEqual(['execute_tool lookup', 'invoke_agent']);
    } finally {
      trace.disable();
      await provider.shutdown();
    }
  });

  it('keeps an SDK span that was sampled out: its trace still reaches the tool', async () => {
    const sampledOut = new BasicTracerProvider({ sampler: new AlwaysOffSampler() }).getTracer('off');
    let traceId: string | undefined;
    const tool = defineTool({
      name: 'lookup',
      description: 'Looks an order up.',
      effect: 'read',
      execute: () => {
        traceId = trace.getActiveSpan()?.spanContext().traceId;
        return 'ok';
      },
    });
    await runToolLoop({
      model: twoRounds({ q: 'x' }),
      ...instrumented([tool], otelInstrumentation({ tracer: sampledOut })),
      messages: USER,
    });
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe('0'.repeat(32));
  });
});

describe('otelInstrumentation metrics', () => {
  it('records the tool duration in seconds, round trips, the stop by reason and the limit it met', async () => {
    const otel = otelInstrumentation({ tracer, meter });
    const model = new ScriptedModel({
      script: () => assistantWithCalls([{ name: 'lookup', arguments: { q: 'again' } }]),
    });
    const outcome = await runToolLoop({
      model,
      ...instrumented([lookupTool()], otel),
      messages: USER,
      maxRoundTrips: 2,
      guard: false,
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'MAX_ROUND_TRIPS', roundTrips: 2 });
    const durations = await sdk.metricPoints('gen_ai.execute_tool.duration');
    expect(durations).toHaveLength(1);
    expect(durations[0]?.attributes).toEqual({ [attr.toolName]: 'lookup' });
    expect(durations[0]?.value).toMatchObject({ count: 2 });
    expect(await sdk.metricPoints('toolwarden.run.round_trips')).toMatchObject([
      { attributes: { [attr.runOutcome]: 'stopped' }, value: { count: 1, sum: 2 } },
    ]);
    expect(await sdk.metricPoints('toolwarden.run.stops')).toMatchObject([
      { attributes: { 'toolwarden.stop.reason': 'MAX_ROUND_TRIPS' }, value: 1 },
    ]);
    expect(await sdk.metricPoints('toolwarden.limit.hits')).toMatchObject([
      { attributes: { 'toolwarden.limit': 'round-trips' }, value: 1 },
    ]);
    const run = spanNamed('invoke_agent');
    expect(run.status.code).toBe(ERROR);
    expect(run.attributes[attr.errorType]).toBe('MAX_ROUND_TRIPS');
  });

  it('counts an idempotent replay, gives it no execute_tool span, and records no key', async () => {
    const { tool, ledger } = chargeTool({ idempotency: { key: (args) => `secret-key-${args.order}` } });
    const model = new ScriptedModel({
      script: [
        assistantWithCalls([
          { name: 'charge', arguments: { order: 'A-1' }, id: 'c1' },
          { name: 'charge', arguments: { order: 'A-1' }, id: 'c2' },
        ]),
        { role: 'assistant', content: 'charged' },
      ],
    });
    const outcome = await runToolLoop({
      model,
      ...instrumented([tool], otelInstrumentation({ tracer, meter, recordContent: true }), {
        store: new MemoryStore(),
      }),
      messages: USER,
      sessionId: 's',
    });
    expect(ledger.charges).toHaveLength(1);
    expect(outcome.toolResults.map((result) => result.replayOf)).toEqual([undefined, 'c1']);
    expect(await sdk.metricPoints('toolwarden.idempotency.replays')).toMatchObject([
      { attributes: { [attr.toolName]: 'charge' }, value: 1 },
    ]);
    // The replay did not run again: it has no execute_tool span (the convention: a replay must not be
    // reported as a new execution); only the call that ran has one.
    expect(
      exporter
        .getFinishedSpans()
        .filter((span) => span.name === 'execute_tool charge')
        .map((span) => span.attributes[attr.toolCallId]),
    ).toEqual(['c1']);
    expect(attributesText()).not.toContain('secret-key');
  });

  it('counts an interrupt for approval, and the run span says how many calls wait', async () => {
    const guarded = defineTool({
      name: 'refund',
      description: 'Refunds an order.',
      effect: 'write',
      idempotency: false,
      needsApproval: true,
      execute: (_args: { order: string }) => 'refunded',
    });
    const model = new ScriptedModel({
      script: [assistantWithCalls([{ name: 'refund', arguments: { order: 'A-1' }, id: 'r1' }])],
    });
    const outcome = await runToolLoop({
      model,
      ...instrumented([guarded], otelInstrumentation({ tracer, meter })),
      messages: USER,
    });
    expect(outcome.type).toBe('interrupted');
    expect(await sdk.metricPoints('toolwarden.run.interrupts')).toMatchObject([{ value: 1 }]);
    const run = spanNamed('invoke_agent');
    expect(run.attributes).toMatchObject({
      [attr.runOutcome]: 'interrupted',
      'toolwarden.run.pending_calls': 1,
    });
    expect(run.status.code).not.toBe(ERROR);
    // The waiting call did not run: no execute_tool span.
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['invoke_agent']);
  });
});
