import { withControlPlane } from '../../core/eks/eks-control-plane';
import type { Cluster } from '../../core/model/cluster';
import type { RunRecord } from '../../core/model/run';
import { ClusterArtifact, MainArtifact, ResourcesArtifact } from '../../contracts/artifacts';
import type { Ports } from '../../ports/ports';
import { NotFoundError } from '../../shared/errors';
import { getArtifact, runArtifactKey } from './artifacts';
import { loadRun, renewLease, type RunRef } from './run-record';

const RUN_ARTIFACTS = { main: MainArtifact, resources: ResourcesArtifact } as const;
type RunArtifactName = keyof typeof RUN_ARTIFACTS;
type RunArtifacts<A extends readonly RunArtifactName[]> = {
  readonly [K in A[number]]: ReturnType<(typeof RUN_ARTIFACTS)[K]['parse']>;
};

export interface OpenStepOptions<A extends readonly RunArtifactName[]> {
  /** Renew the lease first (default true; Finalize releases it instead). */
  readonly renewLease?: boolean;
  /** Artefacts of this run to read (zod-checked): `main` (RenderConfig's), `resources` (RenderClusterResources'). */
  readonly artifacts?: A;
}

export type OpenedStep<A extends readonly RunArtifactName[]> = {
  readonly run: RunRecord;
  /**
   * The cluster as Prepare pinned it for this run; for zalando-eks, once ReadControlPlane ran, as EKS reported it (the
   * endpoint as API server URL, the CA, the written config items and `service_cidr`).
   */
  readonly cluster: Cluster;
  readonly pinned: ClusterArtifact;
  readonly now: number;
} & RunArtifacts<A>;

/**
 * The prologue every run step shares: renew the lease (so a step never acts for an execution that lost the
 * cluster), read the run record, the cluster Prepare pinned, and the run's artefacts it needs.
 */
export async function openStep<const A extends readonly RunArtifactName[] = []>(
  ports: Pick<Ports, 'progress' | 'clock' | 'artifacts'>,
  ref: RunRef,
  options: OpenStepOptions<A> = {},
): Promise<OpenedStep<A>> {
  if (options.renewLease ?? true) await renewLease(ports, ref);
  const run = await loadRun(ports, ref);
  const pinned = await loadPinnedCluster(ports, ref);
  const artifacts: Record<string, unknown> = {};
  for (const name of options.artifacts ?? []) {
    const key = run.artifacts[name];
    if (!key)
      throw new NotFoundError(`The run of ${ref.clusterId} has no ${name} artefact yet; the steps ran out of order`);
    artifacts[name] = await getArtifact<unknown>(ports.artifacts, key, RUN_ARTIFACTS[name]);
  }
  const cluster = run.controlPlane ? withControlPlane(pinned.cluster, run.controlPlane) : pinned.cluster;
  return { run, cluster, pinned, now: ports.clock.now(), ...artifacts } as OpenedStep<A>;
}

/** The cluster as Prepare pinned it for this run. */
export async function loadPinnedCluster(
  ports: Pick<Ports, 'artifacts'>,
  ref: Pick<RunRef, 'clusterId' | 'targetVersion'>,
): Promise<ClusterArtifact> {
  return getArtifact(ports.artifacts, runArtifactKey(ref.clusterId, ref.targetVersion, 'cluster'), ClusterArtifact);
}
