import type { BucketState } from '../../lambdas/core/capacity/launch-bucket';
import type { ExecutionOutcome } from '../../lambdas/core/dispatch/fleet-state';
import { fleetSettings, type FleetSettings } from '../../lambdas/core/dispatch/fleet-settings';
import { waveOf } from '../../lambdas/core/dispatch/waves';
import { EventQueue } from './event-queue';
import { DEFAULT_QUOTAS, DYNAMODB_PARTITION_WRITES, type RaisableQuotas } from './quotas';
import { Gauge, PerMinute, Waits, type Bill, type LimitKey } from './figures';
import { REGIONS, type Fleet, type FleetCluster } from './fleet';
import { FLEET_WRITES_PER_SECOND, RegionDispatcher } from './region-dispatcher';
import { fateOf, type ClusterFate, type RollModel } from './roll-model';
import { batchDone, endExec, sample, startBatch, startExec, startRoll } from './day-rolls';

const MINUTE = 60_000;
const DAY_START = Date.parse('2026-11-30T07:00:00Z');
const GIVE_UP_MS = 48 * 3_600_000;
/** Passes an ended execution asks for, coalesced to one a minute per region (the deployed rule runs one per ending). */
const PASS_COALESCE_MS = MINUTE;

export interface Exec {
  readonly name: string;
  readonly fc: FleetCluster;
  readonly index: number;
  readonly attempt: number;
  status: ExecutionOutcome['status'];
  stoppedAt?: number;
  error?: string;
  phase: 'pre' | 'roll' | 'post' | 'done';
  /** Replacements launched and not yet ended. */
  inFlight: number;
  /** A roll step is queued (an event 'batch' will come). */
  stepQueued?: boolean;
  /** Its PDB block happened (in this or an earlier attempt). */
  blockUsed?: boolean;
  blocked?: { readonly from: number; readonly until: number };
}

export type DayEvent =
  | { readonly kind: 'pass'; readonly region: string; readonly trigger: string }
  | { readonly kind: 'start'; readonly exec: Exec }
  | { readonly kind: 'roll' | 'batch' | 'end'; readonly exec: Exec }
  | { readonly kind: 'batch-done'; readonly exec: Exec; readonly nodes: number; readonly blockedSeconds: number }
  | { readonly kind: 'sample' };

/** The surge of a 200-node pool at 10 %: what the per-account cap is sized for. */
const TYPICAL_SURGE = 20;

/**
 * The settings of each region's deployment on the fleet day (docs/scale.md): the default waves with a 30-minute soak,
 * a failure tolerance of 0.5 % per wave, room for whole waves, and per account and region half again as many clusters
 * as the launch budget keeps busy (1.5 × launchesPerSecond × a batch's seconds / a typical surge): the budget, not
 * the cap, paces a dense account, and its surges shrink rather than wait.
 */
export function daySettings(
  region: string,
  batchSeconds: number,
  overrides: Record<string, unknown> = {},
): FleetSettings {
  const budget = fleetSettings(overrides).launchesPerSecond;
  return fleetSettings({
    maxConcurrent: 5000,
    maxConcurrentPerAccount: Math.max(1, Math.floor((1.5 * budget * batchSeconds) / TYPICAL_SURGE)),
    waveSoakMs: 30 * MINUTE,
    waveFailureTolerance: 0.005,
    regions: [region],
    ...overrides,
  });
}

/**
 * A business day of the whole fleet, in virtual time: one dispatcher per region (RegionDispatcher, the real planning
 * core), its starts played by the roll model, every cluster's launches taken from its account and region's launch
 * budget (the real token bucket), and the figures the quotas are held against counted per minute.
 */
export class FleetDay {
  readonly queue = new EventQueue<DayEvent>();
  readonly dispatchers = new Map<string, RegionDispatcher>();
  readonly execs = new Map<string, Exec>();
  readonly replaced: number[];
  /** Clusters whose PDB block already happened (a retry does not meet it again). */
  readonly blocksUsed = new Set<number>();
  readonly fates: ClusterFate[];
  readonly budgets = new Map<string, BucketState | undefined>();
  /** EC2's RunInstances bucket of each account and region, played alongside: the launches it would have throttled. */
  readonly ec2 = new Map<string, BucketState | undefined>();
  /** Account-regions where a launch found no token, and (with the bucket raised) where AWS's default would have. */
  readonly ec2Throttled = new Set<string>();
  readonly ec2AtDefault = new Map<string, BucketState | undefined>();
  readonly needsRaise = new Set<string>();
  ec2ThrottledLaunches = 0;
  ec2FirstThrottled?: number;
  readonly starts = new PerMinute();
  readonly describes = new PerMinute();
  readonly lists = new PerMinute();
  readonly transitions = new PerMinute();
  readonly launches = new PerMinute();
  readonly writes = new PerMinute();
  readonly lambda: Gauge;
  readonly fleetWrites = new Gauge(DYNAMODB_PARTITION_WRITES);
  readonly waits = new Waits();
  readonly bill: Bill = { transitions: 0, lambdaGbSeconds: 0, lambdaRequests: 0, writeUnits: 0 };
  readonly waves = new Map<string, { clusters: number; firstStart?: number; lastDone?: number }>();
  private readonly passQueued = new Set<string>();
  private readonly indexOf: ReadonlyMap<string, number>;
  done = 0;
  finishedAt?: number;

  constructor(
    readonly fleet: Fleet,
    readonly model: RollModel,
    overrides: Record<string, unknown> = {},
    readonly quotas: RaisableQuotas = DEFAULT_QUOTAS,
  ) {
    this.lambda = new Gauge(quotas.lambdaConcurrency);
    this.indexOf = new Map(fleet.clusters.map((fc, i) => [fc.cluster.id, i]));
    this.replaced = fleet.clusters.map(() => 0);
    this.fates = fleet.clusters.map((fc, i) => fateOf(i, model.batches(fc)));
    for (const region of REGIONS) {
      const mine = fleet.clusters.filter((fc) => fc.cluster.region === region).map((fc) => fc.cluster);
      const settings = daySettings(region, model.batchSeconds(), overrides);
      this.dispatchers.set(region, new RegionDispatcher(region, mine, fleet.targets, settings));
    }
    for (const fc of fleet.clusters) {
      const label = waveOf(fc.cluster, this.dispatchers.get(fc.cluster.region)!.settings).label;
      const wave = this.waves.get(label) ?? { clusters: 0 };
      wave.clusters++;
      this.waves.set(label, wave);
    }
  }

  /** Push the new config version at DAY_START (a webhook pass in every region) and run until the fleet is done. */
  run(): this {
    for (const region of REGIONS) this.queue.push(DAY_START, { kind: 'pass', region, trigger: 'webhook' });
    this.queue.push(DAY_START + MINUTE, { kind: 'sample' });
    for (let next = this.queue.pop(); next; next = this.queue.pop()) {
      if (next.at - DAY_START > GIVE_UP_MS || this.finishedAt !== undefined) break;
      this.handle(next.at, next.event);
    }
    return this;
  }

  hoursOf(at: number): number {
    return (at - DAY_START) / 3_600_000;
  }

  private handle(at: number, event: DayEvent): void {
    switch (event.kind) {
      case 'pass':
        return this.pass(at, event.region, event.trigger);
      case 'start':
        return startExec(this, at, event.exec);
      case 'roll':
        return startRoll(this, at, event.exec);
      case 'batch':
        return startBatch(this, at, event.exec);
      case 'batch-done':
        return batchDone(this, at, event.exec, event.nodes, event.blockedSeconds);
      case 'end':
        return endExec(this, at, event.exec);
      case 'sample':
        return sample(this, at);
    }
  }

  /** An execution ended: a pass in its region soon (coalesced). */
  askForPass(at: number, region: string): void {
    if (this.passQueued.has(region)) return;
    this.passQueued.add(region);
    const dispatcher = this.dispatchers.get(region)!;
    this.queue.push(Math.max(at, dispatcher.lastPassAt + PASS_COALESCE_MS), {
      kind: 'pass',
      region,
      trigger: 'execution',
    });
  }

  private pass(at: number, region: string, trigger: string): void {
    const dispatcher = this.dispatchers.get(region)!;
    if (trigger !== 'schedule') this.passQueued.delete(region);
    if (dispatcher.busyUntil > at) {
      this.queue.push(dispatcher.busyUntil, { kind: 'pass', region, trigger });
      return;
    }
    for (const [reason, count] of dispatcher.lastSkips)
      if (reason in WAIT_OF)
        this.waits.add(WAIT_OF[reason]!, dispatcher.lastPassAt, (count * (at - dispatcher.lastPassAt)) / 1000);
    const running = [...this.execs.values()].filter((e) => e.status === 'RUNNING' && e.fc.cluster.region === region);
    const result = dispatcher.pass(at, trigger, (name) => this.outcome(name), running.length);
    dispatcher.lastSkips = result.skipped;
    dispatcher.lastPassAt = at;
    this.fleetWrites.sample(`FLEET (${region})`, at, Math.min(FLEET_WRITES_PER_SECOND, result.writes));
    this.bill.writeUnits += result.writes;
    this.describes.add(region, at, result.describes);
    this.lists.add(region, at, result.lists);
    for (const { start, at: startAt } of result.starts) {
      const index = this.indexOf.get(start.clusterId)!;
      const exec: Exec = {
        name: start.executionName,
        fc: this.fleet.clusters[index]!,
        index,
        attempt: start.attempt,
        status: 'RUNNING',
        phase: 'pre',
        inFlight: 0,
        stepQueued: true,
        blockUsed: this.blocksUsed.has(index),
      };
      this.execs.set(exec.name, exec);
      this.queue.push(startAt, { kind: 'start', exec });
    }
    if (trigger === 'schedule' || trigger === 'webhook')
      this.queue.push(at + 5 * MINUTE, { kind: 'pass', region, trigger: 'schedule' });
  }

  private outcome(name: string): ExecutionOutcome {
    const exec = this.execs.get(name);
    if (!exec) return { name, status: 'NOT_FOUND' };
    return {
      name,
      status: exec.status,
      ...(exec.stoppedAt !== undefined ? { stoppedAt: exec.stoppedAt } : {}),
      ...(exec.error ? { error: exec.error, cause: 'the roll model failed it' } : {}),
    };
  }
}

/** The skip reasons that are waits for a limit. */
const WAIT_OF: Partial<Record<string, LimitKey>> = {
  capacity: 'capacity',
  'capacity-account': 'capacity-account',
  'capacity-region': 'capacity-region',
  pacing: 'pacing',
  'wave-halted': 'wave-halted',
};

export { DAY_START, MINUTE };
