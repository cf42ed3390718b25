import { API_CALL_SECONDS } from '../simulated-session';
import type { Calibration } from './calibration';
import { prng, type FleetCluster } from './fleet';

/**
 * The roll of one cluster in the fleet day, calibrated from the simulator (calibration.ts) and scaled to AWS-like
 * timings: a batch of surge nodes (boot + drain, × the simulator's batch ratio), ten batches at a surge of 10 %;
 * state transitions, Lambda time and DynamoDB writes per update and per batch as the simulator counted them.
 */
export interface DayTimings {
  /** Instance boot until its Node is Ready. */
  readonly bootSeconds: number;
  /** A node's drain: evictions the PDBs let through one after another, pods terminating. */
  readonly drainSeconds: number;
  /** The simulator's own boot and drain (AWS-like profile) the calibration ran with. */
  readonly simBootSeconds: number;
  readonly simDrainSeconds: number;
}

/** Fleet-day inputs beyond the calibration (docs/scale.md discusses each). */
export const DAY_TIMINGS: DayTimings = {
  bootSeconds: 200,
  drainSeconds: 240,
  simBootSeconds: 180,
  simDrainSeconds: 30,
};
/**
 * Share of clusters with one drain a PodDisruptionBudget blocks, and how long it would (uniform), and the drain grace
 * the fleet day runs with (config item drain_grace_period): a block lasts until the grace is over and the next forced
 * eviction (drain_force_evict_interval, 5 min) at most.
 */
export const PDB_BLOCK = { share: 0.02, minSeconds: 600, maxSeconds: 7200, graceSeconds: 1200, forceSeconds: 300 };
/** Share of update executions that fail (a stack failure, a health gate timing out) part-way through the roll. */
export const FAILURE_RATE = 0.001;

/** What happens to one cluster, decided up front (deterministic per cluster). */
export interface ClusterFate {
  /** The batch a PDB blocks, and for how long. */
  readonly block?: { readonly batch: number; readonly seconds: number };
  /** The batch at which its first attempt fails. */
  readonly failAtBatch?: number;
}

export function fateOf(index: number, batches: number): ClusterFate {
  const random = prng(1_000_003 * (index + 1));
  const blocked = random() < PDB_BLOCK.share;
  const block = blocked
    ? {
        batch: Math.floor(random() * batches),
        seconds: Math.min(
          PDB_BLOCK.graceSeconds + PDB_BLOCK.forceSeconds,
          PDB_BLOCK.minSeconds + random() * (PDB_BLOCK.maxSeconds - PDB_BLOCK.minSeconds),
        ),
      }
    : undefined;
  const fails = random() < FAILURE_RATE;
  const failAtBatch = fails ? Math.floor(random() * batches) : undefined;
  return { ...(block ? { block } : {}), ...(failAtBatch !== undefined ? { failAtBatch } : {}) };
}

/** The model of one cluster's updates. */
export class RollModel {
  constructor(
    readonly calibration: Calibration,
    readonly timings: DayTimings = DAY_TIMINGS,
  ) {}

  batches(fc: FleetCluster): number {
    return Math.ceil(fc.nodes / fc.surge);
  }

  /** A batch of `nodes` (at most the surge): boot and drain, as the simulator's rolls pace them. */
  batchSeconds(): number {
    return this.calibration.batchRatio * (this.timings.bootSeconds + this.timings.drainSeconds);
  }

  /** The roll step's Lambda seconds in a batch of `nodes`: in-process waits (the drain's share scaled) and API calls. */
  lambdaSecondsPerBatch(nodes: number): number {
    const c = this.calibration;
    const waits = Math.max(0, c.rollWaitSecondsPerBatch - this.timings.simDrainSeconds + this.timings.drainSeconds);
    return waits + nodes * c.apiCallsPerNode * API_CALL_SECONDS;
  }

  /** Before the pool's roll (stack updates): the first attempt's, or a resumed one's (stacks unchanged). */
  preRollSeconds(attempt: number): number {
    return attempt === 1 ? this.calibration.preRollSeconds : Math.max(60, this.calibration.resumeSeconds);
  }

  postRollSeconds(): number {
    return Math.max(30, this.calibration.postRollSeconds);
  }

  /** The run record's size in write units (1 KB each), at most 100 nodes kept in detail. */
  recordWriteUnits(fc: FleetCluster): number {
    return Math.max(1, Math.ceil((this.calibration.recordBytesPerNode * Math.min(100, fc.nodes)) / 1024));
  }
}
