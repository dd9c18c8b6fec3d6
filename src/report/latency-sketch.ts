/**
 * Percentiles of durations in bounded memory: each value goes into a logarithmic bucket whose width is 2%
 * of its size, so a percentile read back is within 1% of a value that was added (the DDSketch idea), and
 * a million calls of one tool take a few hundred buckets, not a million numbers.
 */
export class LatencySketch {
  static readonly RELATIVE_ACCURACY = 0.01;
  private static readonly GAMMA =
    (1 + LatencySketch.RELATIVE_ACCURACY) / (1 - LatencySketch.RELATIVE_ACCURACY);
  private static readonly LOG_GAMMA = Math.log(LatencySketch.GAMMA);
  /** Durations below this (ms) count as 0: a microsecond is below what a call's clock tells. */
  private static readonly MIN_MS = 0.001;

  private readonly buckets = new Map<number, number>();
  private zeros = 0;
  private count = 0;
  private maximum = 0;

  add(ms: number): void {
    this.count++;
    if (ms > this.maximum) this.maximum = ms;
    if (ms < LatencySketch.MIN_MS) {
      this.zeros++;
      return;
    }
    const index = Math.ceil(Math.log(ms) / LatencySketch.LOG_GAMMA);
    this.buckets.set(index, (this.buckets.get(index) ?? 0) + 1);
  }

  get max(): number {
    return this.maximum;
  }

  /** How many durations were added. */
  get size(): number {
    return this.count;
  }

  /** The nearest-rank percentile (`p` in 0..1), 0 with no values; never above the largest value added. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil(p * this.count));
    let seen = this.zeros;
    if (seen >= rank) return 0;
    for (const index of [...this.buckets.keys()].sort((a, b) => a - b)) {
      seen += this.buckets.get(index) ?? 0;
      if (seen >= rank) {
        const estimate = (2 * LatencySketch.GAMMA ** index) / (LatencySketch.GAMMA + 1);
        return Math.min(estimate, this.maximum);
      }
    }
    return this.maximum;
  }
}
