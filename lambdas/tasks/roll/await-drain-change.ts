import { drainWatchKey } from '../../core/rollout/drain-watch';
import type { Clock } from '../../ports/clock';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { ProgressStore } from '../../ports/progress-store';
import type { RollStepOutput } from '../../contracts/cluster-update';
import type { RollActions } from '../../core/rollout/roll-step-report';
import type { RollPolicy } from '../../core/rollout/roll-policy';

export interface DrainWatch {
  readonly clusterId: string;
  /** The nodes whose drains PDBs refused. */
  readonly nodeNames: readonly string[];
  /** How often to look (the pool's drain_poll_interval). */
  readonly pollMs: number;
  /** When to stop waiting anyway (ms since the epoch). */
  readonly untilMs: number;
}

export interface DrainWaitOutcome {
  /** How long the wait lasted (ms of the port's clock). */
  readonly waitedMs: number;
  /** Why it ended: something relevant changed, the time was up, or a look failed (the next step looks afresh). */
  readonly ended: 'changed' | 'timeout' | 'error';
}

/**
 * Wait in process while PDBs refuse a drain: look at the draining nodes' pods, the PDBs covering them and the
 * operator's controls every `pollMs` (core/rollout/drain-watch.ts), and return as soon as any of it changes, or at
 * `untilMs`. Costs no state transition while it waits; the time passes through the Clock port, so the simulator's
 * virtual clock (and the tests') runs it in no wall time.
 */
export async function awaitDrainChange(
  ports: { readonly clock: Clock; readonly progress: Pick<ProgressStore, 'getControls'> },
  kube: Pick<KubeCluster, 'listPods' | 'listPdbs'>,
  watch: DrainWatch,
): Promise<DrainWaitOutcome> {
  const { clock } = ports;
  const started = clock.now();
  const look = async (): Promise<string> => {
    const pods = await Promise.all(watch.nodeNames.map((nodeName) => kube.listPods({ nodeName })));
    const [pdbs, controls] = await Promise.all([kube.listPdbs(), ports.progress.getControls(watch.clusterId)]);
    return drainWatchKey(pods.flat(), pdbs, controls);
  };
  const outcome = (ended: DrainWaitOutcome['ended']): DrainWaitOutcome => ({ waitedMs: clock.now() - started, ended });
  try {
    const before = await look();
    while (clock.now() < watch.untilMs) {
      await clock.sleep(Math.min(watch.pollMs, watch.untilMs - clock.now()));
      if ((await look()) !== before) return outcome('changed');
    }
    return outcome('timeout');
  } catch {
    // A failed look ends the wait early: the next roll step observes again, with the task's retries and reporting.
    return outcome('error');
  }
}

/**
 * PDBs refused the drain and nothing else is due sooner than a poll: the block is recorded (status, progress), now
 * wait for it in this invocation (roll/await-drain-change.ts) instead of a Wait state, up to `waitSeconds` (at most
 * IN_PROCESS_WAIT_SECONDS, never past a forced eviction), and ask for the next step at once (`waitSeconds` 0: the
 * rollout's Choice goes straight back to RollStep). A lifted block is acted on within one poll interval, and a long
 * block costs two transitions per wait.
 */
export async function waitWhileRefused(
  ports: { readonly clock: Clock; readonly progress: Pick<ProgressStore, 'getControls'> },
  kube: Parameters<typeof awaitDrainChange>[1],
  { clusterId, deadline }: { readonly clusterId: string; readonly deadline: number },
  output: RollStepOutput,
  acted: RollActions,
  policy: RollPolicy,
): Promise<RollStepOutput> {
  const pollMs = policy.drain.pollIntervalMs;
  const untilMs = Math.min(ports.clock.now() + output.waitSeconds * 1000, deadline);
  if (output.status !== 'IN_PROGRESS' || !acted.refused || untilMs - ports.clock.now() <= pollMs) return output;
  const nodeNames = Object.values(acted.progress.nodes)
    .filter((n) => n.state === 'draining' && n.nodeName !== undefined)
    .map((n) => n.nodeName!);
  const waited = await awaitDrainChange(ports, kube, { clusterId, nodeNames, pollMs, untilMs });
  const waitedSeconds = Math.round(waited.waitedMs / 1000);
  // A look that failed ends the wait: the next step comes after a poll interval (a Wait state), never in a busy loop.
  if (waited.ended === 'error') return { ...output, waitSeconds: Math.ceil(pollMs / 1000), waitedSeconds };
  return { ...output, waitSeconds: 0, waitedSeconds };
}
