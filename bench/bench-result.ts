/** One figure a benchmark reports. `ok` is set when a budget applies (DESIGN.md §8). */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The budget in the same unit (smaller is better). */
  readonly budget?: number;
  readonly ok?: boolean;
  /** One line of context (sizes, how it was measured). */
  readonly note?: string;
}

/** What every `bench/*.bench.ts` module exports. */
export interface BenchModule {
  readonly name: string;
  run(): Promise<BenchResult[]>;
  /** Lines printed after the table (a module's summary), once it ran. */
  epilogue?(): readonly string[];
}

/** A figure against a budget: ok when value ≤ budget. */
export function withBudget(result: Omit<BenchResult, 'ok'> & { budget: number }): BenchResult {
  return { ...result, ok: result.value <= result.budget };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Run `fn` `runs` times and give each duration in ms. */
export async function timeRuns(runs: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    durations.push(performance.now() - start);
  }
  return durations;
}
