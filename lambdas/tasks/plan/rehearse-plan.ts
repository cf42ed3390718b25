import type { ClusterArtifact } from '../../contracts/artifacts';
import type { Cluster } from '../../core/model/cluster';
import { hasChanges, type ClusterPlan } from '../../core/plan/plan-document';
import type { Rehearsal } from '../../core/rehearsal/rehearsal-report';
import type { ConfigSource } from '../../ports/config-source';
import type { RehearsalOptions, RehearsalReads, Rehearsals } from '../../ports/rehearsals';

/** What rehearsing a plan uses: the rehearsals port, and the live ports it may read (never write). */
export type RehearsePlanPorts = RehearsalReads & { readonly rehearsals: Rehearsals };

/** The config sources answering the given versions (a run's, a pull request's head) instead of their channels. */
function pinnedSources(
  sources: readonly ConfigSource[],
  pinned: Pick<ClusterArtifact, 'sourceVersions'>,
): ConfigSource[] {
  return sources.map((source) => ({
    name: source.name,
    kind: source.kind,
    location: source.location,
    resolveVersion: async (channel) => pinned.sourceVersions[source.name] ?? source.resolveVersion(channel),
    checkout: (version) => source.checkout(version),
  }));
}

/**
 * The plan with the rehearsal of its update (when it changes anything and found no problem), or with a problem
 * saying why the rehearsal failed. `pinned`: rehearse those versions (the plan's) instead of what the channels
 * resolve to when the twin runs.
 */
export async function rehearsePlan(
  plan: ClusterPlan,
  cluster: Cluster,
  ports: RehearsePlanPorts,
  options: RehearsalOptions & { readonly pinned?: Pick<ClusterArtifact, 'sourceVersions'> } = {},
): Promise<ClusterPlan> {
  if (plan.problems.length || !hasChanges(plan)) return plan;
  const outcome = await tryRehearsal(cluster, ports, options);
  return 'failed' in outcome
    ? { ...plan, problems: [...plan.problems, `the rehearsal failed: ${outcome.failed}`] }
    : { ...plan, rehearsal: outcome.rehearsal };
}

/** Rehearse the update of `cluster` through the rehearsals port, reading the live ports only; a failure says why. */
export async function tryRehearsal(
  cluster: Cluster,
  ports: RehearsePlanPorts,
  options: RehearsalOptions & { readonly pinned?: Pick<ClusterArtifact, 'sourceVersions'> } = {},
): Promise<{ readonly rehearsal: Rehearsal } | { readonly failed: string }> {
  const { pinned, ...rehearsal } = options;
  const live: RehearsalReads = {
    clock: ports.clock,
    sources: pinned ? pinnedSources(ports.sources, pinned) : ports.sources,
    artifacts: ports.artifacts,
    secrets: ports.secrets,
    ...(ports.progress ? { progress: { getRuns: (runs) => ports.progress!.getRuns(runs) } } : {}),
    forCluster: (c) => ports.forCluster(c),
  };
  try {
    return { rehearsal: await ports.rehearsals.rehearse(cluster, live, rehearsal) };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}
