import type { RollStepOutput, RolloutState } from '../../contracts/cluster-update';
import { IN_PROCESS_WAIT_SECONDS } from '../../core/rollout/roll-step-report';
import type { Clock } from '../../ports/clock';

/**
 * A wait shorter than this (a pod's termination grace, a volume detaching, an instance shutting down) is slept in
 * the invocation and the roll steps on there, instead of a Wait state and another RollStep (three transitions). Boots
 * (90 s and more) still go through the Wait state.
 */
export const SHORT_WAIT_SECONDS = 60;

/**
 * One invocation of RollNodePool: roll steps until one asks for a long wait (a boot), the pool is done or held, or the
 * invocation has spent IN_PROCESS_WAIT_SECONDS, or one waited for a drain PDBs refused; short waits (pods
 * terminating, volumes detaching, instances shutting down) are slept here (Clock port), and the blocks slept through
 * are named in the message. Each step is a whole
 * reentrant step (lease, progress, gates), so a timeout or crash between them loses nothing. What the steps replaced
 * adds up in the output (metrics), and `waitedSeconds` is the time spent waiting in the invocation.
 */
export async function stepThroughShortWaits(
  input: RolloutState,
  clock: Clock,
  step: (state: RolloutState, deadline: number) => Promise<RollStepOutput>,
): Promise<RollStepOutput> {
  const started = clock.now();
  const deadline = started + IN_PROCESS_WAIT_SECONDS * 1000;
  let output = await step(input, deadline);
  let replacedNow = output.replacedNow ?? 0;
  let drainSeconds = output.drainSeconds;
  const launches = { launchesDeferred: output.launchesDeferred ?? 0, scalingThrottled: output.scalingThrottled ?? 0 };
  // Blocks the invocation waited through (volumes detaching, hooks, the health gate), for its message.
  const held: string[] = [];
  // A step that waited for a drain PDBs refused ends the invocation: the block reaches the execution's history (and
  // the CLI's lines) before the next step acts on its end.
  while (output.status === 'IN_PROGRESS' && output.waitedSeconds === undefined) {
    const waitMs = output.waitSeconds * 1000;
    if (waitMs > SHORT_WAIT_SECONDS * 1000 || clock.now() + waitMs >= deadline) break;
    if (output.blockedBy && !held.includes(output.blockedBy)) held.push(output.blockedBy);
    if (waitMs > 0) await clock.sleep(waitMs);
    output = await step({ ...input, step: output }, deadline);
    replacedNow += output.replacedNow ?? 0;
    launches.launchesDeferred += output.launchesDeferred ?? 0;
    launches.scalingThrottled += output.scalingThrottled ?? 0;
    if (output.drainSeconds !== undefined) drainSeconds = Math.max(drainSeconds ?? 0, output.drainSeconds);
  }
  const waitedSeconds = Math.round((clock.now() - started) / 1000);
  const earlier = held.filter((block) => block !== output.blockedBy).map((block) => `blocked by ${block}`);
  return {
    ...output,
    ...(earlier.length ? { message: `${output.message}; earlier in this step: ${earlier.join('; ')}` } : {}),
    replacedNow,
    ...(drainSeconds !== undefined ? { drainSeconds } : {}),
    ...(launches.launchesDeferred ? { launchesDeferred: launches.launchesDeferred } : {}),
    ...(launches.scalingThrottled ? { scalingThrottled: launches.scalingThrottled } : {}),
    ...(waitedSeconds > 0 ? { waitedSeconds } : {}),
  };
}
