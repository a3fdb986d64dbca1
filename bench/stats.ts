/** Latency and throughput figures from raw per-request samples. */

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
  /** Requests per second over the measured wall time. */
  rps: number;
}

/** Nearest-rank percentile of ascending `sorted` (q in 0..1); NaN when empty. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

export function summarize(samplesMs: ArrayLike<number>, wallMs: number): Summary {
  const sorted = Float64Array.from(samplesMs).sort();
  let total = 0;
  for (const v of sorted) total += v;
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    mean: sorted.length ? total / sorted.length : Number.NaN,
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
    rps: wallMs > 0 ? (sorted.length * 1000) / wallMs : Number.NaN,
  };
}

export function median(values: readonly number[]): number {
  return percentile(Float64Array.from(values).sort(), 0.5);
}
