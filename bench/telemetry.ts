import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import Database from 'better-sqlite3';
import { createSqliteAuditSink } from '../dist/adapters/sqlite/index.js';
import { type AuditSink, auditListener, createJsonlAuditSink } from '../dist/audit/index.js';
import {
  createToolRuntime,
  defineTool,
  type Model,
  type ModelResponse,
  type RunOptions,
  runToolLoop,
  type ToolRuntimeOptions,
} from '../dist/index.js';
import { otelInstrumentation } from '../dist/telemetry/index.js';
import { add, addSchema } from './add-tool.js';
import { compare, formatRow, type Subject } from './measure.js';

/** What a configuration adds to the loop's options: the instrumentation's wrappers, or an audit listener. */
type Telemetry = Pick<RunOptions, 'onEvent' | 'wrapRun'> & Pick<ToolRuntimeOptions, 'wrapToolExecution'>;

interface Configuration {
  readonly name: string;
  /** The options of one request (an audit listener is per run: it keeps the run's ids). */
  readonly options: () => Telemetry;
  /** Before a subject's batch of requests (a global context manager set), and after it. */
  readonly enter?: () => void;
  readonly exit?: () => void;
  /** At the end of a batch, inside the timed window: spans exported, audit records written. */
  readonly settle?: () => Promise<void>;
  /** The target for the added cost, printed with PASS or MISS. */
  readonly target?: { readonly text: string; readonly met: (addedMicros: number) => boolean };
}

const tool = defineTool({
  name: 'add',
  description: 'Adds.',
  effect: 'read',
  input: addSchema,
  execute: add,
});
const USAGE = { inputTokens: 10, outputTokens: 5 };
const ANSWER: ModelResponse = { message: { role: 'assistant', content: 'done' }, usage: USAGE };

/** `calls` rounds of one `add` call each (new arguments every round, so the guard sees progress), then an answer. */
function oneCallPerRound(calls: number): Model {
  let round = 0;
  return {
    async generate() {
      round++;
      if (round > calls) return ANSWER;
      const toolCalls = [{ id: `c${round}`, name: 'add', arguments: `{"a": ${round}, "b": 1}` }];
      return { message: { role: 'assistant', content: '', toolCalls }, usage: USAGE };
    },
  };
}

/**
 * A forced scavenge at the end of a subject's batch, inside its timed window. Without it, the garbage a
 * heavy subject leaves (audit records, spans) is collected during the next subject's batch, and `compare`
 * rotates the order so that each subject always follows the same one: "off" came right after SQLite and
 * read 5% slower than its A/A copy.
 */
function collectYoung(): void {
  const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
  if (gc === undefined) throw new Error('run the benchmark with node --expose-gc');
  gc({ type: 'minor' });
}

/** A subject whose operation is one guarded call: `run(n)` runs n / perRequest requests through `runToolLoop`. */
function subject(configuration: Configuration, perRequest: number, made: Map<string, number>): Subject {
  return {
    name: configuration.name,
    async run(n) {
      configuration.enter?.();
      for (let done = 0; done < n; done += perRequest) {
        // `wrapToolExecution` is the runtime's, the rest the loop's; a runtime per request, as the one-off form built.
        const { wrapToolExecution, ...loop } = configuration.options();
        const outcome = await runToolLoop({
          model: oneCallPerRound(perRequest),
          messages: [{ role: 'user', content: 'add them' }],
          runtime: createToolRuntime({
            tools: [tool],
            limits: { exclude: ['add'] },
            ...(wrapToolExecution === undefined ? {} : { wrapToolExecution }),
          }),
          maxRoundTrips: perRequest + 1,
          ...loop,
        });
        if (outcome.type !== 'completed' || outcome.toolCalls !== perRequest)
          throw new Error(`the benchmark request did not complete: ${outcome.type}`);
        // Spans (or records) it should leave: one per call and one for the run.
        made.set(configuration.name, (made.get(configuration.name) ?? 0) + perRequest + 1);
      }
      await configuration.settle?.();
      configuration.exit?.();
      // Each subject pays for its own young garbage, not the subject after it (see `collectYoung`).
      collectYoung();
    },
  };
}

/**
 * The OTel 2.x SDK as an application sets it up: a batch span processor, a periodic metric reader (60 s).
 * The requests here never yield to the event loop (the model answers at once), so the processor's export
 * would never finish between them and a queue of the default 2,048 would drop spans (cheaper than keeping
 * them): the queue holds a whole batch of requests, and `settle` exports it inside the timed window.
 */
function otelSdk() {
  const spans = new InMemorySpanExporter();
  const processor = new BatchSpanProcessor(spans, { maxQueueSize: 8_192 });
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const instrumentation = otelInstrumentation({
    tracer: tracerProvider.getTracer('bench'),
    meter: meterProvider.getMeter('bench'),
  });
  let exported = 0;
  return {
    instrumentation,
    /** Exports what the batch processor holds, then clears the exporters so memory stays flat. */
    async settle() {
      await tracerProvider.forceFlush();
      exported += spans.getFinishedSpans().length;
      spans.reset();
      metricExporter.reset();
    },
    exported: () => exported,
    async shutdown() {
      await reader.forceFlush();
      const points = metricExporter.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      return points.length;
    },
  };
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

export async function benchTelemetry(): Promise<string[]> {
  const folder = await mkdtemp(join(tmpdir(), 'tw-bench-telemetry-'));
  const jsonlPath = join(folder, 'audit.jsonl');
  const sqlitePath = join(folder, 'audit.sqlite');
  let jsonlLost = 0;
  let sqliteLost = 0;
  const jsonl = createJsonlAuditSink({ path: jsonlPath, onError: (f) => (jsonlLost += f.lostRecords) });
  const sqlite = createSqliteAuditSink({ path: sqlitePath, onError: (f) => (sqliteLost += f.lostRecords) });
  let jsonlRecords = 0;
  /** Records each sink got in the sinks-alone rows (the same number for both). */
  let aloneRecords = 0;
  let sqliteRecords = 0;
  const counted = (sink: AuditSink, count: () => void): AuditSink => ({
    append: (record) => {
      count();
      sink.append(record);
    },
    flush: () => sink.flush(),
    close: () => sink.close(),
  });
  const jsonlCounted = counted(jsonl, () => jsonlRecords++);
  const sqliteCounted = counted(sqlite, () => sqliteRecords++);
  const withManager = otelSdk();
  const noManager = otelSdk();
  const manager = new AsyncLocalStorageContextManager();
  const noSdk = otelInstrumentation();
  const passThrough: Telemetry = { wrapToolExecution: (_, next) => next(), wrapRun: (_, next) => next() };
  const discard: AuditSink = { append: () => {}, flush: async () => {}, close: async () => {} };
  let events = 0;
  const configurations: Configuration[] = [
    { name: 'telemetry off', options: () => ({}) },
    { name: 'telemetry off, again (A/A control: the noise)', options: () => ({}) },
    {
      name: 'reference: pass-through wrapToolExecution and wrapRun (only call next)',
      options: () => passThrough,
    },
    {
      name: 'otelInstrumentation(), no SDK registered (global no-op API)',
      options: () => noSdk,
      target: { text: 'added < 0.1 µs', met: (added) => added < 0.1 },
    },
    {
      name: 'OTel SDK: BatchSpanProcessor + in-memory exporters, AsyncLocalStorage context manager',
      options: () => withManager.instrumentation,
      enter: () => context.setGlobalContextManager(manager.enable()),
      exit: () => context.disable(),
      settle: () => withManager.settle(),
    },
    {
      name: 'OTel SDK: the same, no context manager (spans do not nest)',
      options: () => noManager.instrumentation,
      settle: () => noManager.settle(),
    },
    {
      name: 'reference: an onEvent listener that reads each event type',
      options: () => ({ onEvent: (event) => (events += event.type.length) }),
    },
    {
      name: 'reference: auditListener into a sink that discards (records built, digests made)',
      options: () => ({ onEvent: auditListener(discard) }),
    },
    {
      name: 'JSONL audit sink (auditListener as onEvent; the writes included)',
      options: () => ({ onEvent: auditListener(jsonlCounted) }),
      settle: () => jsonl.flush(),
      target: { text: '<= 2 µs added', met: (added) => added <= 2 },
    },
    {
      name: 'SQLite audit sink (the same; WAL, one transaction per batch)',
      options: () => ({ onEvent: auditListener(sqliteCounted) }),
      settle: () => sqlite.flush(),
    },
  ];
  const index = (prefix: string) => configurations.findIndex((c) => c.name.startsWith(prefix));
  const lines: string[] = [];
  const made = new Map<string, number>();
  const expected = (i: number) => made.get(configurations[i]?.name ?? '') ?? 0;
  try {
    for (const perRequest of [10, 1]) {
      const subjects = configurations.map((c) => subject(c, perRequest, made));
      const { medians, ratios } = await compare(subjects, { rounds: 21, operations: 2_000, warmup: 2_000 });
      const off = medians[configurations[0]?.name ?? ''] ?? Number.NaN;
      const added = (name: string) => ((ratios[name] ?? Number.NaN) - 1) * off;
      lines.push(
        `### Telemetry: cost per guarded call, ${perRequest === 10 ? '10 calls per request (runToolLoop, one call per round, guards on)' : '1 call per request (the run span and run record not shared)'}`,
        '',
        'Median of 21 interleaved rounds x 2,000 calls; "added" is (median per-round ratio to off - 1) x off. 2 shared cores: the A/A row is the noise.',
        '',
        formatRow(['configuration', 'µs per call', 'added µs', 'ratio to off', 'target']),
        formatRow(['---', '---', '---', '---', '---']),
        ...configurations.map((c) => {
          const extra = added(c.name);
          const target = c.target === undefined ? '—' : `${c.target.text}: ${verdict(c.target.met(extra))}`;
          return formatRow([c.name, medians[c.name] ?? 0, extra, ratios[c.name] ?? 0, target]);
        }),
        '',
      );
    }
    lines.push(
      ...(await sinksAlone(jsonlCounted, sqliteCounted, (n) => {
        aloneRecords += n;
      })),
    );
  } finally {
    await jsonl.close();
    await sqlite.close();
    const spanCounts = `${withManager.exported()} of ${expected(index('OTel SDK: Batch'))} and ${noManager.exported()} of ${expected(index('OTel SDK: the same'))}`;
    const metricCounts = `${await withManager.shutdown()} and ${await noManager.shutdown()}`;
    const jsonlLines = readFileSync(jsonlPath, 'utf8').split('\n').length - 1;
    const database = new Database(sqlitePath, { readonly: true });
    const rows = (database.prepare('SELECT count(*) AS n FROM toolwarden_audit').get() as { n: number }).n;
    database.close();
    lines.push(
      `Checks: spans exported by the two SDK rows ${spanCounts}; metrics collected ${metricCounts}; JSONL lines ${jsonlLines} of ${jsonlRecords} records appended, ${expected(index('JSONL')) + aloneRecords} expected (lost ${jsonlLost}); SQLite rows ${rows} of ${sqliteRecords}, ${expected(index('SQLite')) + aloneRecords} expected (lost ${sqliteLost}).`,
    );
    rmSync(folder, { recursive: true, force: true });
  }
  return lines;
}

/** A call record as auditListener makes it, for the sinks alone. */
const CALL_RECORD = {
  schemaVersion: 2,
  kind: 'call',
  at: '2026-12-01T12:00:00.000Z',
  runId: '7126df3f-47c7-4858-babe-e5e47fdcca43',
  sessionId: 'session-1',
  toolCallId: 'call_0',
  toolName: 'add',
  argumentsSummary: '{"a":1,"b":2}',
  argumentsDigest: 'ab'.repeat(32),
  outcome: 'success',
  durationMs: 0.012,
  attempts: 1,
  retries: 0,
  replay: false,
} as const;

/**
 * What a sink itself costs per record: `append` of a call record and its share of the batched write
 * (the flush inside the timed window), without the run, the events or the listener around it.
 */
async function sinksAlone(
  jsonl: AuditSink,
  sqlite: AuditSink,
  count: (n: number) => void,
): Promise<string[]> {
  const discard: AuditSink = { append: () => {}, flush: async () => {}, close: async () => {} };
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  /** `perTurn`: one record per turn of the event loop, as calls that each follow a model call append them. */
  const sinkSubject = (name: string, sink: AuditSink, perTurn = false): Subject => ({
    name,
    async run(operations) {
      for (let i = 0; i < operations; i++) {
        sink.append({ ...CALL_RECORD, toolCallId: `call_${i}` });
        if (perTurn) await nextTurn();
      }
      if (sink === jsonl) count(operations);
      await sink.flush();
    },
  });
  const subjects = [
    sinkSubject('a sink that discards (the copy of the record only)', discard),
    sinkSubject('JSONL audit sink', jsonl),
    sinkSubject('SQLite audit sink', sqlite),
    sinkSubject('reference: a sink that discards, one record per event-loop turn', discard, true),
    sinkSubject('JSONL audit sink, one record per event-loop turn', jsonl, true),
    sinkSubject('SQLite audit sink, one record per event-loop turn', sqlite, true),
  ];
  const { medians } = await compare(subjects, { rounds: 21, operations: 2_000, warmup: 2_000 });
  const jsonlMicros = medians['JSONL audit sink'] ?? Number.NaN;
  return [
    '### The sinks alone: cost per record (append, and its share of the batched write)',
    '',
    formatRow(['sink', 'µs per record', 'target']),
    formatRow(['---', '---', '---']),
    ...subjects.map((subject) =>
      formatRow([
        subject.name,
        medians[subject.name] ?? 0,
        subject.name === 'JSONL audit sink' ? `<= 2 µs: ${verdict(jsonlMicros <= 2)}` : '—',
      ]),
    ),
    '',
  ];
}
