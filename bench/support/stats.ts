// Latency statistics shared by the benches: nearest-rank percentiles over one run's samples.

export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

/** The middle value (the upper of the two middle ones for an even count), as `stats(values).p50`. */
export function median(values: readonly number[]): number {
  return stats(values).p50
}

export function stats(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? NaN }
}
