// `clm plan`'s implementation, loaded by its action (plan.ts declares the command).
import { formatPlan } from '../../core/plan/format-plan';
import type { ClusterPlan } from '../../core/plan/plan-document';
import { planCluster } from '../../tasks/plan/plan-cluster';
import { EXIT, type CliIo, type ExitCode } from '../io';
import type { ProvisionOptions } from './provision';
import { openSelectedClusters } from './provision-run';
import { peersOf } from '../../core/eks/oidc-trust';
import { listWithStoredStatus } from '../../tasks/step/cluster-status';

export async function runPlan(options: ProvisionOptions, io: CliIo): Promise<ExitCode> {
  const { selected, world } = await openSelectedClusters(options, io);
  const plans: ClusterPlan[] = [];
  // The world is never saved: a plan leaves the state directory (and the simulated world) as it found them.
  const all = await listWithStoredStatus(world.ports);
  for (const cluster of selected) {
    const withPeers = { ...cluster, accountClusters: peersOf(cluster, all) };
    plans.push(await planCluster(withPeers, world.ports, { applyOnly: options.applyOnly ?? false }));
  }
  io.stdout(
    options.output === 'json' ? `${JSON.stringify({ clusters: plans }, null, 2)}\n` : plans.map(formatPlan).join('\n'),
  );
  return plans.some((p) => p.problems.length) ? EXIT.FAILED : EXIT.OK;
}
