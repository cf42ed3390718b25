/**
 * What the fleet day counts, per minute and per region (or account and region, or DynamoDB key): the peaks the quotas
 * are held against, the waits each limit caused, and the bill.
 */
export class PerMinute {
  private readonly counts = new Map<string, Map<number, number>>();

  add(key: string, at: number, amount: number): void {
    if (amount === 0) return;
    const minute = Math.floor(at / 60_000);
    let series = this.counts.get(key);
    if (!series) this.counts.set(key, (series = new Map()));
    series.set(minute, (series.get(minute) ?? 0) + amount);
  }

  /** The busiest minute of any key: its key and its average per second. */
  peak(): { key: string; perSecond: number; at: number } {
    let best = { key: '', perSecond: 0, at: 0 };
    for (const [key, series] of this.counts)
      for (const [minute, count] of series)
        if (count / 60 > best.perSecond) best = { key, perSecond: count / 60, at: minute * 60_000 };
    return best;
  }

  /** The first minute any key averaged more than `perSecond` (ms), if one did. */
  firstAbove(perSecond: number, keyFilter: (key: string) => boolean = () => true): number | undefined {
    let first: number | undefined;
    for (const [key, series] of this.counts) {
      if (!keyFilter(key)) continue;
      for (const [minute, count] of series)
        if (count / 60 > perSecond && (first === undefined || minute * 60_000 < first)) first = minute * 60_000;
    }
    return first;
  }

  /** The busiest minute of each key. */
  peaks(): Map<string, number> {
    const peaks = new Map<string, number>();
    for (const [key, series] of this.counts) peaks.set(key, Math.max(...series.values()) / 60);
    return peaks;
  }
}

/** The largest sample of any key, and when. */
export class Gauge {
  private readonly max = new Map<string, { value: number; at: number }>();
  /** When a sample first went over `limit` (the quota the gauge is held against). */
  firstOver?: { key: string; at: number };

  constructor(private readonly limit = Infinity) {}

  sample(key: string, at: number, value: number): void {
    const current = this.max.get(key);
    if (!current || value > current.value) this.max.set(key, { value, at });
    if (value > this.limit && !this.firstOver) this.firstOver = { key, at };
  }

  peak(): { key: string; value: number; at: number } {
    let best = { key: '', value: 0, at: 0 };
    for (const [key, m] of this.max) if (m.value > best.value) best = { key, ...m };
    return best;
  }
}

/** The limits a cluster can wait for, and what waiting for each cost (cluster-seconds), and when it first did. */
export const LIMITS = {
  'launch-budget': 'the launch budget per account and region (launchesPerSecond, EC2 RunInstances refill)',
  'capacity-account': 'maxConcurrentPerAccount',
  capacity: 'maxConcurrent',
  'capacity-region': 'maxConcurrentPerRegion',
  pacing: 'StartExecution pacing (startsPerSecond)',
  'wave-halted': 'a failed cluster halting its wave',
  pdb: 'PodDisruptionBudgets blocking drains',
} as const;
export type LimitKey = keyof typeof LIMITS;

export class Waits {
  readonly seconds = new Map<LimitKey, number>();
  readonly first = new Map<LimitKey, number>();

  add(limit: LimitKey, at: number, clusterSeconds: number): void {
    if (clusterSeconds <= 0) return;
    this.seconds.set(limit, (this.seconds.get(limit) ?? 0) + clusterSeconds);
    if (!this.first.has(limit)) this.first.set(limit, at);
  }

  /** The limit that cost the most cluster-hours, with when it first bound. */
  worst(): { limit: LimitKey; hours: number; firstAt: number } | undefined {
    let worst: { limit: LimitKey; hours: number; firstAt: number } | undefined;
    for (const [limit, seconds] of this.seconds)
      if (!worst || seconds / 3600 > worst.hours)
        worst = { limit, hours: seconds / 3600, firstAt: this.first.get(limit)! };
    return worst;
  }
}

/** The bill of the day (bench/cost-model.ts prices). */
export interface Bill {
  transitions: number;
  lambdaGbSeconds: number;
  lambdaRequests: number;
  writeUnits: number;
}
