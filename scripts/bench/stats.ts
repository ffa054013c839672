/** Order statistics shared by the benchmarks. */

/** The value at quantile `q` (0–1) of an already sorted list. */
export const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export const median = (xs: number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);
