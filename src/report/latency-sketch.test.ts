import { describe, expect, it } from 'vitest';
import { LatencySketch } from './latency-sketch.js';

/** The nearest-rank percentile of the values themselves. */
function exact(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1] ?? 0;
}

describe('LatencySketch', () => {
  it('gives each percentile within 1% of the exact one, over values from microseconds to minutes', () => {
    // A deterministic spread: log-uniform from 0.002 ms to 120,000 ms.
    const values = Array.from(
      { length: 20_000 },
      (_, i) => 0.002 * 60_000_000 ** (((i * 7919) % 20_000) / 20_000),
    );
    const sketch = new LatencySketch();
    for (const value of values) sketch.add(value);
    for (const p of [0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999]) {
      const want = exact(values, p);
      expect(Math.abs(sketch.percentile(p) - want) / want, `p${p}`).toBeLessThanOrEqual(0.01);
    }
    expect(sketch.max).toBe(Math.max(...values));
  });

  it('counts durations below a microsecond as 0, and answers 0 with no value', () => {
    const sketch = new LatencySketch();
    expect(sketch.percentile(0.5)).toBe(0);
    for (const value of [0, 0, 0.0001, 5]) sketch.add(value);
    expect(sketch.percentile(0.5)).toBe(0);
    expect(sketch.percentile(0.75)).toBe(0);
    expect(Math.abs(sketch.percentile(1) - 5) / 5).toBeLessThanOrEqual(0.01);
  });

  it('never answers above the largest value added', () => {
    const sketch = new LatencySketch();
    sketch.add(7.3);
    expect(sketch.percentile(0.99)).toBeLessThanOrEqual(7.3);
    expect(sketch.percentile(0.99)).toBeGreaterThanOrEqual(7.3 * 0.99);
  });
});
