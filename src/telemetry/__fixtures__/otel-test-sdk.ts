import { context, type Meter, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type DataPoint, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** The test's own metric reader: collects on demand, exports nowhere. */
class CollectingReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** An OTel 2.x SDK for one test: in-memory spans, metrics collected on demand. */
export interface OtelTestSdk {
  readonly exporter: InMemorySpanExporter;
  readonly tracer: Tracer;
  readonly meter: Meter;
  /** The points of the metric `name` (named as written, so a renamed constant fails the test). */
  metricPoints(name: string): Promise<DataPoint<unknown>[]>;
  shutdown(): Promise<void>;
}

/**
 * Spans nest through the global context API, which needs a context manager; it is the only global this
 * sets, and `shutdown` takes it away. Tracer and meter are passed to the instrumentation explicitly.
 */
export function startOtelTestSdk(): OtelTestSdk {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    exporter,
    tracer: tracerProvider.getTracer('test'),
    meter: meterProvider.getMeter('test'),
    metricPoints: async (name) => {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((candidate) => candidate.descriptor.name === name);
      return (metric?.dataPoints ?? []) as DataPoint<unknown>[];
    },
    shutdown: async () => {
      context.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}
