import { taskMemoryMb } from '../../lambdas/tasks/define-task';
import { task as rollNodePool } from '../../lambdas/tasks/roll-node-pool';
import type { RunFigures } from '../simulated-session';
import { PROFILES, SURGE, clusterLife, rollSeconds } from '../simulation-scenarios';

/**
 * What the fleet day's roll model takes from the real simulator (the deployed ASL run in process over the simulated
 * world, as `clm provision --simulate` runs it), with AWS-like timings: a cluster of 30 workers rolled with a surge of 3
 * (10 %, ten batches, as 200 nodes with a surge of 20), once plainly and once with a PodDisruptionBudget refusing every
 * eviction for the first 30 minutes of the roll.
 */
export interface Calibration {
  readonly workers: number;
  readonly batches: number;
  /** The pool's roll against batches × (boot + ready + drain) of the simulator's timings. */
  readonly batchRatio: number;
  /** An update's time before its pool roll starts (stacks, the pool's stack) and after it ends (manifests, finalize). */
  readonly preRollSeconds: number;
  readonly postRollSeconds: number;
  /** An update that changes nothing (a resumed attempt's stacks are unchanged): its whole time. */
  readonly resumeSeconds: number;
  /** State transitions of an update without nodes to replace, and per batch of a roll. */
  readonly transitionsFixed: number;
  readonly transitionsPerBatch: number;
  /** StartExecution calls per update: the cluster-update execution and its children. */
  readonly executions: number;
  /** Lambda seconds of the tasks outside the roll, and of RollNodePool per batch (in-process waits, API calls). */
  readonly lambdaFixedGbSeconds: number;
  readonly lambdaInvocationsFixed: number;
  readonly rollInvocationsPerBatch: number;
  readonly rollWaitSecondsPerBatch: number;
  /** RollNodePool's AWS and Kubernetes API calls per replaced node (each API_CALL_SECONDS of Lambda time). */
  readonly apiCallsPerNode: number;
  readonly rollGb: number;
  /** Progress store (DynamoDB) writes of an update outside the roll, and per batch. */
  readonly writesFixed: number;
  readonly writesPerBatch: number;
  /** The run record's size per replaced node kept in detail (bytes; at most 100 kept per pool). */
  readonly recordBytesPerNode: number;
  /** A blocked drain: how long after the PDB allows evictions again the roll goes on, its transitions per hour. */
  readonly block: { readonly noticeSeconds: number; readonly transitionsPerHour: number; readonly lambdaShare: number };
  readonly cpuMs: number;
}

const WORKERS = 30;
const BLOCK_SECONDS = 1800;

const rollOnly = (roll: RunFigures, base: RunFigures) => ({
  transitions: roll.transitions - base.transitions,
  writes: roll.progressWrites - base.progressWrites,
});

export async function calibrate(): Promise<Calibration> {
  const started = process.cpuUsage();
  const timings = PROFILES['aws-like'];
  const plain = await clusterLife('aws-like', WORKERS);
  const pool = plain.roll.pools.workers!;
  const poolSeconds = rollSeconds(pool);
  const batches = Math.ceil(WORKERS / SURGE);
  const runSeconds = plain.roll.virtualMs / 1000;
  const preRollSeconds = (pool.startedAt! - plain.roll.startedAt) / 1000;
  const roll = rollOnly(plain.roll, plain.configChange);
  const rollGb = taskMemoryMb(rollNodePool) / 1024;
  const waited = plain.roll.rollSteps.reduce((sum, s) => sum + (s.waitedSeconds ?? 0), 0);
  const blocked = await blockedRoll(plain.roll.startedAt + (pool.startedAt! - plain.roll.startedAt));
  const cpu = process.cpuUsage(started);
  return {
    workers: WORKERS,
    batches,
    batchRatio:
      poolSeconds /
      (batches * (timings.instanceBootSeconds + timings.nodeReadySeconds + timings.podTerminationSeconds)),
    preRollSeconds,
    postRollSeconds: runSeconds - preRollSeconds - poolSeconds,
    resumeSeconds: plain.noop.virtualMs / 1000,
    transitionsFixed: plain.configChange.transitions,
    transitionsPerBatch: roll.transitions / batches,
    executions: plain.roll.executions,
    lambdaFixedGbSeconds: plain.configChange.lambda.gbSeconds,
    lambdaInvocationsFixed: plain.configChange.lambda.invocations,
    rollInvocationsPerBatch: plain.roll.rollSteps.length / batches,
    rollWaitSecondsPerBatch: waited / batches,
    apiCallsPerNode: (plain.roll.rollCalls.aws + plain.roll.rollCalls.kube) / plain.roll.replaced,
    rollGb,
    writesFixed: plain.configChange.progressWrites,
    writesPerBatch: roll.writes / batches,
    recordBytesPerNode: plain.roll.recordBytes / WORKERS,
    block: blockFigures(plain, blocked),
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

interface Blocked {
  readonly life: Awaited<ReturnType<typeof clusterLife>>;
  /** When the PDB allowed evictions again (ms). */
  readonly liftedAt: number;
}

/** The same life, the web PDB refusing evictions until 30 minutes after the plain roll's pool started. */
async function blockedRoll(poolStartedAt: number): Promise<Blocked> {
  const worldStart = Date.parse('2026-01-01T00:00:00.000Z');
  const untilSeconds = (poolStartedAt - worldStart) / 1000 + BLOCK_SECONDS;
  const life = await clusterLife(
    'aws-like',
    WORKERS,
    {},
    {
      blockedEvictions: [{ namespace: 'default', pdb: 'web', untilSeconds }],
    },
  );
  return { life, liftedAt: worldStart + untilSeconds * 1000 };
}

function blockFigures(plain: Awaited<ReturnType<typeof clusterLife>>, blocked: Blocked) {
  const roll = blocked.life.roll;
  const firstBlocked = roll.rollSteps.find((s) => s.blockedBy)?.at ?? blocked.liftedAt;
  const blockedSeconds = Math.max(1, (blocked.liftedAt - firstBlocked) / 1000);
  const extra = rollSeconds(roll.pools.workers) - rollSeconds(plain.roll.pools.workers);
  const waitedBlocked = roll.rollSteps
    .filter((s) => s.blockedBy && s.at < blocked.liftedAt)
    .reduce((sum, s) => sum + (s.waitedSeconds ?? 0), 0);
  return {
    noticeSeconds: Math.max(0, extra - blockedSeconds),
    transitionsPerHour: ((roll.transitions - plain.roll.transitions) / blockedSeconds) * 3600,
    lambdaShare: Math.min(1, waitedBlocked / blockedSeconds),
  };
}
