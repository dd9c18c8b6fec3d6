import { PerformanceObserver } from 'node:perf_hooks';

/** A piece of work measured per operation: `run(n)` does n operations. */
export interface Subject {
  readonly name: string;
  run(operations: number): Promise<void>;
}

export interface Comparison {
  readonly medians: Record<string, number>;
  /** Median, over rounds, of each subject's time divided by the baseline's in the same round. */
  readonly ratios: Record<string, number>;
  /**
   * Median, over rounds, of `a`'s time divided by `b`'s in the same round: two builds compared directly,
   * not each through the first subject (a floor of a microsecond or two, whose noise a quotient of two
   * ratios would carry twice).
   */
  between(a: string, b: string): number;
}

/**
 * Runs the subjects side by side: every round runs each once (order rotating), so a noisy neighbour
 * slows them alike. Reports the median microseconds per operation and the median per-round ratio.
 */
export async function compare(
  subjects: readonly Subject[],
  options: { rounds: number; operations: number; warmup: number },
): Promise<Comparison> {
  for (const subject of subjects) await subject.run(options.warmup);
  const perRound: Record<string, number[]> = Object.fromEntries(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = subjects.map((_, i) => subjects[(i + round) % subjects.length] as Subject);
    for (const subject of order) {
      const started = process.hrtime.bigint();
      await subject.run(options.operations);
      const micros = Number(process.hrtime.bigint() - started) / 1000 / options.operations;
      perRound[subject.name]?.push(micros);
    }
  }
  const baseline = perRound[subjects[0]?.name ?? ''] ?? [];
  const medians: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  for (const subject of subjects) {
    const times = perRound[subject.name] ?? [];
    medians[subject.name] = median(times);
    ratios[subject.name] = median(times.map((t, i) => t / (baseline[i] ?? Number.NaN)));
  }
  const between = (a: string, b: string) => {
    const over = perRound[b] ?? [];
    return median((perRound[a] ?? []).map((t, i) => t / (over[i] ?? Number.NaN)));
  };
  return { medians, ratios, between };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Heap used after a forced collection (run node with --expose-gc). */
export function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run the benchmark with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export function formatRow(cells: readonly (string | number)[]): string {
  return `| ${cells.map((c) => (typeof c === 'number' ? c.toFixed(2) : c)).join(' | ')} |`;
}

export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Bytes allocated by `run`. Node cannot switch the GC off, so: force a full GC, flush pending GC
 * notifications, read the heap, run, read the heap again, flush, and keep the sample only if a
 * PerformanceObserver saw no `gc` entry in between (the young generation, 1 MiB or more, holds a whole
 * request). Median of the clean samples, less the same measurement around an empty run.
 */
export async function allocatedBytes(run: () => Promise<void>, samples = 21): Promise<number> {
  let gcs = 0;
  const observer = new PerformanceObserver((list) => {
    gcs += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  const measure = async (task: () => Promise<void>): Promise<number> => {
    const values: number[] = [];
    for (let attempt = 0; attempt < samples * 5 && values.length < samples; attempt++) {
      settledHeap();
      await flush();
      await flush();
      const seen = gcs;
      const before = process.memoryUsage().heapUsed;
      await task();
      const after = process.memoryUsage().heapUsed;
      await flush();
      await flush();
      if (gcs === seen) values.push(after - before);
    }
    if (values.length === 0) throw new Error('every sample saw a garbage collection');
    return median(values);
  };
  try {
    const empty = await measure(async () => {});
    return (await measure(run)) - empty;
  } finally {
    observer.disconnect();
  }
}
