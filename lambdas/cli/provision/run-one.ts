import { HeldOutput, type UpdateOptions } from '../../contracts/cluster-update';
import type { Cluster } from '../../core/model/cluster';
import { runClusterUpdate, type ExecutionResult } from '../../runtime/local/run-cluster-update';
import { processHolder } from '../../shared/process-identity';
import type { CliWorld } from '../cli-world';
import type { CliIo } from '../io';
import { progressLine, rollEta } from './progress-line';
import { summarize, type ClusterSummary } from './summary';

export interface RunOneOptions {
  readonly applyOnly?: boolean;
  /** provision `--skip-rollback-resources` entries (STACK:LogicalId). */
  readonly skipRollbackResources?: readonly string[];
  /** decommission `--keep-volumes`. */
  readonly keepVolumes?: boolean;
  /** `clm roll --force`: the node roll the execution carries. */
  readonly nodeRoll?: UpdateOptions['nodeRoll'];
  readonly output: 'text' | 'json';
}

/**
 * One cluster's update, in process, on the deployed ASL, with a progress line per task and the world saved after
 * each. When `interrupted()` says so after a task (Ctrl-C, SIGTERM: a safe point, never inside a task), the lease is
 * released and the run goes no further: 'stopped'. The same command continues it from the stored progress.
 */
export async function runOne(
  verb: 'provision' | 'decommission',
  cluster: Cluster,
  world: CliWorld,
  options: RunOneOptions,
  io: CliIo,
  interrupted: () => boolean = () => false,
): Promise<ClusterSummary | 'stopped'> {
  const started = world.ports.clock.now();
  if (verb === 'decommission') world.decommissioning(cluster.id);
  const before = world.invariants();
  const print = (line: string) => {
    if (options.output === 'text') io.stdout(`${line}\n`);
  };
  print(`${cluster.id}: ${verb} starting`);
  const eta = rollEta();
  // This process (host, pid, start time): a second process is refused while this one lives; a re-run after a crash
  // takes the lease over at once, because the dead pid is gone (shared/process-identity.ts).
  const holder = processHolder();
  let stop: (() => void) | undefined;
  const stopped = new Promise<'stopped'>((resolve) => (stop = () => resolve('stopped')));
  const execute = () =>
    runClusterUpdate(
      { clusterId: cluster.id, action: verb, options: executionOptions(verb, options), trigger: 'cli' },
      {
        ports: world.ports,
        executionId: holder,
        advanceClock: (seconds) => world.advanceClock(seconds),
        onTask: async (event) => {
          world.save();
          print(progressLine(event, world.ports.clock.now() - started, eta));
          if (!interrupted()) return;
          await world.ports.progress.releaseLease(cluster.id, holder);
          world.save();
          stop!();
          await new Promise<never>(() => undefined); // this run goes no further
        },
      },
    );
  const result = await untilNotHandedOver(execute, stopped, (n) =>
    print(`${cluster.id}: run ${n} reached a loop cap (history bound) and handed over; continuing in a fresh run`),
  );
  if (result === 'stopped') {
    io.stderr(
      `${cluster.id}: stopped at a safe point (after a finished task), lease released; run the same command again to continue\n`,
    );
    return 'stopped';
  }
  world.save();
  const summary = await summarize(cluster, result, world, started, before);
  print(`${cluster.id}: ${summary.status} — ${summary.message}`);
  return summary;
}

/** Hand-overs one command follows before it gives up (each is a whole execution at a loop cap). */
export const MAX_HAND_OVERS = 20;

/**
 * Runs `execute` again while its execution ended handed over (HANDED_OVER: a loop reached its cap; the stored progress
 * says where to go on), as the dispatcher's next pass does in AWS; the transitions of all runs add up.
 */
export async function untilNotHandedOver(
  execute: () => Promise<ExecutionResult>,
  stopped: Promise<'stopped'>,
  onHandOver: (run: number) => void,
): Promise<ExecutionResult | 'stopped'> {
  let transitions = 0;
  let executions = 0;
  let maxHistory = 0;
  for (let run = 1; ; run++) {
    const result = await Promise.race([execute(), stopped]);
    if (result === 'stopped') return result;
    transitions += result.stats.stateTransitions;
    executions += result.stats.executions;
    maxHistory = Math.max(maxHistory, result.stats.maxHistoryEvents);
    const stats = { stateTransitions: transitions, executions, maxHistoryEvents: maxHistory };
    if (!handedOver(result) || run > MAX_HAND_OVERS) return { ...result, stats };
    onHandOver(run);
  }
}

function handedOver(result: ExecutionResult): boolean {
  if (result.status !== 'SUCCEEDED') return false;
  const held = (result.output as { held?: unknown } | undefined)?.held;
  return HeldOutput.safeParse(held).data?.status === 'HANDED_OVER';
}

/** The execution input's `options` from the flags of `verb`. */
export function executionOptions(
  verb: 'provision' | 'decommission',
  options: Omit<RunOneOptions, 'output'>,
): UpdateOptions {
  return {
    applyOnly: options.applyOnly ?? false,
    ...(verb === 'provision' && options.skipRollbackResources?.length
      ? { skipRollbackResources: [...options.skipRollbackResources] }
      : {}),
    ...(verb === 'decommission' && options.keepVolumes ? { keepVolumes: true } : {}),
    ...(verb === 'provision' && options.nodeRoll ? { nodeRoll: options.nodeRoll } : {}),
  };
}
