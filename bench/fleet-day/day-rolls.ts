import { takeFromBucket } from '../../lambdas/core/capacity/launch-bucket';
import { launchLimitsOf } from '../../lambdas/core/dispatch/fleet-settings';
import type { DayEvent, Exec, FleetDay } from './day-simulation';

/**
 * How the roll model plays one execution in the fleet day: its stacks (pre-roll), the pool's batches (launches taken
 * from the account and region's budget; a PDB block; a failure part-way), then manifests and Finalize; every step
 * counted where the quotas look (StartExecution, transitions, Lambda, DynamoDB, RunInstances).
 */
const push = (day: FleetDay, at: number, event: DayEvent) => day.queue.push(at, event);
const regionOf = (exec: Exec) => exec.fc.cluster.region;

export function startExec(day: FleetDay, at: number, exec: Exec): void {
  const c = day.model.calibration;
  const wave = day.waves.get(waveLabel(day, exec))!;
  wave.firstStart ??= at;
  day.starts.add(regionOf(exec), at, 1);
  // An update's own states (no roll) come in three stretches: before the stacks settle, around the pool, at the end.
  day.transitions.add(regionOf(exec), at, c.transitionsFixed / 3);
  day.writes.add(`CLUSTER#${exec.fc.cluster.id}`, at, c.writesFixed);
  day.bill.transitions += c.transitionsFixed;
  day.bill.lambdaGbSeconds += c.lambdaFixedGbSeconds;
  day.bill.lambdaRequests += c.lambdaInvocationsFixed;
  day.bill.writeUnits += c.writesFixed;
  push(day, at + day.model.preRollSeconds(exec.attempt) * 1000, { kind: 'roll', exec });
}

export function startRoll(day: FleetDay, at: number, exec: Exec): void {
  exec.phase = 'roll';
  // The pool's rollout is a child execution (and a hand-over, if any, another): one StartExecution each.
  day.starts.add(regionOf(exec), at, day.model.calibration.executions - 1);
  day.transitions.add(regionOf(exec), at, day.model.calibration.transitionsFixed / 3);
  push(day, at, { kind: 'batch', exec });
}

export function startBatch(day: FleetDay, at: number, exec: Exec): void {
  const { fc, index } = exec;
  const remaining = fc.nodes - day.replaced[index]!;
  if (remaining <= 0) {
    exec.phase = 'post';
    push(day, at + day.model.postRollSeconds() * 1000, { kind: 'end', exec });
    return;
  }
  const want = Math.min(fc.surge, remaining);
  const settings = day.dispatchers.get(regionOf(exec))!.settings;
  const limits = launchLimitsOf(settings);
  const take = takeFromBucket(day.budgets.get(fc.place), want, at, limits);
  day.budgets.set(fc.place, take.state);
  day.writes.add(`LAUNCH#${fc.place}`, at, 1);
  day.bill.writeUnits += 1;
  const seconds = day.model.batchSeconds();
  if (take.granted === 0) {
    day.waits.add('launch-budget', at, (take.nextAt! - at) / 1000);
    push(day, take.nextAt!, { kind: 'batch', exec });
    return;
  }
  day.launches.add(fc.place, at, take.granted);
  if (take.granted < want) day.waits.add('launch-budget', at, ((want - take.granted) / want) * seconds);
  exec.batchNodes = take.granted;
  const fate = day.fates[index]!;
  const batch = day.batchesDone[index]!;
  if (exec.attempt === 1 && fate.failAtBatch === batch) {
    exec.phase = 'post';
    exec.error = 'RolloutError';
    push(day, at + (seconds / 2) * 1000, { kind: 'end', exec });
    return;
  }
  const blockedSeconds =
    fate.block && fate.block.batch === batch ? fate.block.seconds + day.model.calibration.block.noticeSeconds : 0;
  if (blockedSeconds > 0) {
    exec.blocked = { from: at + (seconds / 2) * 1000, until: at + (seconds / 2 + blockedSeconds) * 1000 };
    day.waits.add('pdb', at, blockedSeconds);
  }
  push(day, at + (seconds + blockedSeconds) * 1000, { kind: 'batch-done', exec, nodes: take.granted, blockedSeconds });
}

export function batchDone(day: FleetDay, at: number, exec: Exec, nodes: number, blockedSeconds: number): void {
  const c = day.model.calibration;
  day.replaced[exec.index]! += nodes;
  day.batchesDone[exec.index]! += 1;
  const transitions = c.transitionsPerBatch + (c.block.transitionsPerHour * blockedSeconds) / 3600;
  day.transitions.add(regionOf(exec), at, transitions);
  day.bill.transitions += transitions;
  const lambdaSeconds = day.model.lambdaSecondsPerBatch(nodes) + blockedSeconds * c.block.lambdaShare;
  day.bill.lambdaGbSeconds += lambdaSeconds * c.rollGb;
  day.bill.lambdaRequests += c.rollInvocationsPerBatch + Math.ceil(blockedSeconds / 600);
  const units = c.writesPerBatch * day.model.recordWriteUnits(exec.fc);
  day.writes.add(`CLUSTER#${exec.fc.cluster.id}`, at, units);
  day.bill.writeUnits += units;
  delete exec.blocked;
  push(day, at, { kind: 'batch', exec });
}

export function endExec(day: FleetDay, at: number, exec: Exec): void {
  exec.phase = 'done';
  exec.stoppedAt = at;
  exec.status = exec.error ? 'FAILED' : 'SUCCEEDED';
  const region = regionOf(exec);
  day.transitions.add(region, at, day.model.calibration.transitionsFixed / 3);
  if (!exec.error) {
    const target = day.fleet.targets.get(exec.fc.cluster.id)!;
    if (target.ok) day.dispatchers.get(region)!.reached(exec.fc.cluster.id, target.targetVersion);
    day.waves.get(waveLabel(day, exec))!.lastDone = at;
    day.done++;
    if (day.done === day.fleet.clusters.length) day.finishedAt = at;
  }
  day.askForPass(at, region);
}

/** Lambda concurrency per region now: blocked rolls wait in process, others by their duty, stacks a little. */
export function sample(day: FleetDay, at: number): void {
  const c = day.model.calibration;
  const byRegion = new Map<string, number>();
  const batchSeconds = day.model.batchSeconds();
  const preDuty = c.lambdaFixedGbSeconds / 0.5 / Math.max(60, c.preRollSeconds);
  for (const exec of day.execs.values()) {
    if (exec.status !== 'RUNNING') continue;
    const blocked = exec.blocked && exec.blocked.from <= at && at < exec.blocked.until;
    const duty = blocked
      ? c.block.lambdaShare
      : exec.phase === 'roll'
        ? Math.min(1, day.model.lambdaSecondsPerBatch(exec.batchNodes || exec.fc.surge) / batchSeconds)
        : preDuty;
    byRegion.set(regionOf(exec), (byRegion.get(regionOf(exec)) ?? 0) + duty);
  }
  for (const [region, dispatcher] of day.dispatchers)
    day.lambda.sample(region, at, (byRegion.get(region) ?? 0) + (dispatcher.busyUntil > at ? 1 : 0));
  if (day.finishedAt === undefined) push(day, at + 60_000, { kind: 'sample' });
}

function waveLabel(day: FleetDay, exec: Exec): string {
  return day.dispatchers.get(regionOf(exec))!.waveLabel(exec.fc.cluster);
}
