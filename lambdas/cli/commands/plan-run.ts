// `clm plan`'s implementation, loaded by its action (plan.ts declares the command).
import { formatPlan } from '../../core/plan/format-plan';
import type { ClusterPlan } from '../../core/plan/plan-document';
import { planCluster } from '../../tasks/plan/plan-cluster';
import { EXIT, type CliIo, type ExitCode } from '../io';
import type { PlanFlags } from './plan';
import { rehearsePlan } from '../../tasks/plan/rehearse-plan';
import { openSelectedClusters } from './provision-run';
import { peersOf } from '../../core/eks/oidc-trust';
import { listWithStoredStatus } from '../../tasks/step/cluster-status';

export async function runPlan(options: PlanFlags, io: CliIo): Promise<ExitCode> {
  const { selected, world } = await openSelectedClusters(options, io);
  const plans: ClusterPlan[] = [];
  // The world is never saved: a plan leaves the state directory (and the simulated world) as it found them.
  const all = await listWithStoredStatus(world.ports);
  for (const cluster of selected) {
    const withPeers = { ...cluster, accountClusters: peersOf(cluster, all) };
    const plan = await planCluster(withPeers, world.ports, { applyOnly: options.applyOnly ?? false });
    const stored = all.find((c) => c.id === cluster.id) ?? cluster;
    plans.push(
      options.rehearse
        ? await rehearsePlan(plan, { ...withPeers, ...stored }, world.ports, options.runs ? { runs: options.runs } : {})
        : plan,
    );
  }
  io.stdout(
    options.output === 'json' ? `${JSON.stringify({ clusters: plans }, null, 2)}\n` : plans.map(formatPlan).join('\n'),
  );
  return plans.some((p) => p.problems.length) ? EXIT.FAILED : EXIT.OK;
}
