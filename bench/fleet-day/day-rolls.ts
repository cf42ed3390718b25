import { takeFromBucket, tokensAt, type BucketState } from '../../lambdas/core/capacity/launch-bucket';
import { DEFAULT_QUOTAS, type Bucket } from './quotas';
import { launchLimitsOf } from '../../lambdas/core/dispatch/fleet-settings';
import type { DayEvent, Exec, FleetDay } from './day-simulation';

/**
 * How the roll model plays one execution in the fleet day: its stacks (pre-roll), then the pool's roll as the planner
 * runs it, a window of at most `surge` replacements in flight (each a launch taken from the account and region's
 * budget, then boot and drain: a batch's seconds), topped up whenever a replacement ends or the budget refills; a PDB
 * block holds one replacement; a failure ends the attempt part-way; then manifests and Finalize. Every step is counted
 * where the quotas look (StartExecution, transitions, Lambda, DynamoDB, RunInstances).
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
  // The pool's rollout is a child execution: one more StartExecution.
  day.starts.add(regionOf(exec), at, day.model.calibration.executions - 1);
  day.transitions.add(regionOf(exec), at, day.model.calibration.transitionsFixed / 3);
  push(day, at, { kind: 'batch', exec });
}

/** A roll step: top the window of replacements in flight up to the surge, as far as the launch budget allows. */
export function startBatch(day: FleetDay, at: number, exec: Exec): void {
  if (exec.phase !== 'roll' || exec.stepQueued === false) return;
  exec.stepQueued = false;
  const { fc, index } = exec;
  const open = fc.nodes - day.replaced[index]! - exec.inFlight;
  if (open <= 0 && exec.inFlight === 0) {
    exec.phase = 'post';
    push(day, at + day.model.postRollSeconds() * 1000, { kind: 'end', exec });
    return;
  }
  const want = Math.min(fc.surge - exec.inFlight, open);
  if (want <= 0) return;
  const fate = day.fates[index]!;
  if (exec.attempt === 1 && fate.failAtBatch !== undefined && day.replaced[index]! >= fate.failAtBatch * fc.surge) {
    fail(day, at, exec);
    return;
  }
  const take = takeFromBucket(day.budgets.get(fc.place), want, at, launchLimitsOf(settingsOf(day, exec)));
  day.budgets.set(fc.place, take.state);
  day.writes.add(`LAUNCH#${fc.place}`, at, 1);
  day.bill.writeUnits += 1;
  if (take.granted < want) {
    day.waits.add('launch-budget', at, ((want - take.granted) * (take.nextAt! - at)) / 1000 / fc.surge);
    exec.stepQueued = true;
    push(day, take.nextAt!, { kind: 'batch', exec });
  }
  if (take.granted > 0) launch(day, at, exec, take.granted);
}

/** `nodes` replacements start: they end a batch's seconds later, or later still when a PDB blocks one of them. */
function launch(day: FleetDay, at: number, exec: Exec, nodes: number): void {
  const { fc, index } = exec;
  day.launches.add(fc.place, at, nodes);
  ec2Launches(day, at, fc.place, nodes);
  exec.inFlight += nodes;
  const seconds = day.model.batchSeconds();
  const block = day.fates[index]!.block;
  const first = day.replaced[index]! + exec.inFlight - nodes;
  const blocked = block && !exec.blockUsed && first <= block.batch * fc.surge && block.batch * fc.surge < first + nodes;
  const blockedSeconds = blocked ? block.seconds + day.model.calibration.block.noticeSeconds : 0;
  if (blocked) {
    exec.blockUsed = true;
    day.blocksUsed.add(index);
    exec.blocked = { from: at + (seconds / 2) * 1000, until: at + (seconds / 2 + blockedSeconds) * 1000 };
    day.waits.add('pdb', at, blockedSeconds);
  }
  push(day, at + (seconds + blockedSeconds) * 1000, { kind: 'batch-done', exec, nodes, blockedSeconds });
}

/**
 * The launches against EC2's RunInstances bucket of the account and region, played alongside the launch budget: a
 * launch that finds no token is one EC2 would throttle (the group retries it seconds later, when it takes a token, so
 * the bucket goes into debt). The model's launches go on as the budget granted them; the throttles are counted.
 */
function ec2Launches(day: FleetDay, at: number, place: string, nodes: number): void {
  const throttled = takeFromEc2(day.ec2, day.quotas.runInstances, at, place, nodes);
  if (throttled > 0) {
    day.ec2Throttled.add(place);
    day.ec2ThrottledLaunches += throttled;
    day.ec2FirstThrottled ??= at;
  }
  // With the bucket raised, the same launches against AWS's default: the accounts that need the raise.
  if (day.quotas.runInstances !== DEFAULT_QUOTAS.runInstances)
    if (takeFromEc2(day.ec2AtDefault, DEFAULT_QUOTAS.runInstances, at, place, nodes) > 0) day.needsRaise.add(place);
}

/** Take `nodes` launches from a bucket that goes into debt; how many found no token. */
function takeFromEc2(
  buckets: Map<string, BucketState | undefined>,
  limits: Bucket,
  at: number,
  place: string,
  nodes: number,
): number {
  const state = buckets.get(place);
  const when = Math.max(at, state?.at ?? at);
  const tokens = tokensAt(state, when, limits.perSecond, limits.burst);
  buckets.set(place, { tokens: tokens - nodes, at: when });
  return Math.min(nodes, nodes - Math.floor(Math.max(0, tokens) + 1e-9));
}

export function batchDone(day: FleetDay, at: number, exec: Exec, nodes: number, blockedSeconds: number): void {
  if (exec.phase !== 'roll') return;
  const c = day.model.calibration;
  day.replaced[exec.index]! += nodes;
  exec.inFlight -= nodes;
  // A group of replacements costs its share of a round's transitions and Lambda time: a roll the budget holds short
  // takes smaller, more frequent steps, but waits under a minute in process (no Wait state, no transition). Its
  // progress is written per step: a whole round's writes for each group.
  const share = nodes / exec.fc.surge;
  const transitions = c.transitionsPerBatch * share + (c.block.transitionsPerHour * blockedSeconds) / 3600;
  day.transitions.add(regionOf(exec), at, transitions);
  day.bill.transitions += transitions;
  const lambdaSeconds = day.model.lambdaSecondsPerBatch(exec.fc.surge) * share + blockedSeconds * c.block.lambdaShare;
  day.bill.lambdaGbSeconds += lambdaSeconds * c.rollGb;
  day.bill.lambdaRequests += c.rollInvocationsPerBatch + Math.ceil(blockedSeconds / 600);
  const units = c.writesPerBatch * day.model.recordWriteUnits(exec.fc);
  day.writes.add(`CLUSTER#${exec.fc.cluster.id}`, at, units);
  day.bill.writeUnits += units;
  if (blockedSeconds > 0) delete exec.blocked;
  if (exec.stepQueued !== true) {
    exec.stepQueued = true;
    push(day, at, { kind: 'batch', exec });
  }
}

/** The attempt fails part-way (a stack, a health gate): what is in flight finishes (the retry finds it done). */
function fail(day: FleetDay, at: number, exec: Exec): void {
  day.replaced[exec.index]! += exec.inFlight;
  exec.inFlight = 0;
  exec.phase = 'post';
  exec.error = 'RolloutError';
  push(day, at + (day.model.batchSeconds() / 2) * 1000, { kind: 'end', exec });
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
        ? Math.min(1, day.model.lambdaSecondsPerBatch(Math.max(1, exec.inFlight)) / batchSeconds)
        : preDuty;
    byRegion.set(regionOf(exec), (byRegion.get(regionOf(exec)) ?? 0) + duty);
  }
  for (const [region, dispatcher] of day.dispatchers)
    day.lambda.sample(region, at, (byRegion.get(region) ?? 0) + (dispatcher.busyUntil > at ? 1 : 0));
  if (day.finishedAt === undefined) push(day, at + 60_000, { kind: 'sample' });
}

const settingsOf = (day: FleetDay, exec: Exec) => day.dispatchers.get(regionOf(exec))!.settings;

function waveLabel(day: FleetDay, exec: Exec): string {
  return day.dispatchers.get(regionOf(exec))!.waveLabel(exec.fc.cluster);
}
