import { changedEksItems, withControlPlane, type EksControlPlane } from '../core/eks/eks-control-plane';
import { clusterName } from '../core/cloudformation/stack-names';
import type { Cluster } from '../core/model/cluster';
import { StepOutput } from '../contracts/cluster-update';
import { NotFoundError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { loadCluster, writeConfigItems } from './step/cluster-status';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';

const PORTS = { eks: 'read', registry: 'write', progress: 'write', artifacts: 'read', clock: 'read' } as const;

/** A control plane EKS lists without an endpoint or CA yet is still being created: ask again this much later. */
const NOT_SERVING_WAIT_SECONDS = 30;

/**
 * CLM's EKS creation hook (reference/clm-behaviour.md §6.1, §6.2 step 12) and the first step of an EKS decommission
 * (§6.5): DescribeCluster(alias). Provisioning, after the main stack: the endpoint, CA and OIDC issuer that differ from
 * the registry's config items are written back (every registry kind: writeConfigItems), and the run records the
 * control plane, so every later step reaches the API server at the endpoint with the EKS CA and renders with
 * `service_cidr` (open-step.ts). A cluster EKS does not know fails the update: the main stack must create it.
 * Decommission: a missing cluster is a successful no-op (`controlPlane: absent`); otherwise the API server is
 * reached the same way. zalando-aws clusters have nothing to read.
 */
export async function readControlPlane(ref: RunRef, ports: PortsFor<typeof PORTS>): Promise<StepOutput> {
  const { run, cluster, pinned } = await openStep(ports, ref);
  if (cluster.provider !== 'zalando-eks')
    return { status: 'DONE', waitSeconds: 1, message: `${cluster.provider}: the control plane is the master pools` };
  const name = clusterName(cluster);
  const plane = await ports.forCluster(cluster).eks.describe(name);
  const decommission = run.action === 'decommission';
  if (!plane) {
    if (decommission)
      return {
        status: 'DONE',
        waitSeconds: 1,
        controlPlane: 'absent',
        message: `EKS cluster ${name} does not exist in ${cluster.infrastructureAccount} ${cluster.region}: nothing to decommission`,
      };
    throw new NotFoundError(
      `EKS cluster ${name} does not exist in ${cluster.infrastructureAccount} ${cluster.region} after the main stack ${cluster.localId} was deployed: the main stack must create an AWS::EKS::Cluster named as the cluster's alias`,
      { location: { clusterId: cluster.id, field: 'alias' } },
    );
  }
  if (!plane.endpoint || !plane.certificateAuthorityData)
    return {
      status: 'IN_PROGRESS',
      waitSeconds: NOT_SERVING_WAIT_SECONDS,
      message: `EKS cluster ${name} is ${plane.status} and has no endpoint yet`,
    };
  const written = decommission ? [] : await writeBack(ports, cluster.id, plane);
  await updateRun(ports, ref, (r) => ({ ...r, phase: 'ReadControlPlane', controlPlane: plane }));
  return {
    status: 'DONE',
    waitSeconds: 1,
    controlPlane: 'present',
    message: describe(
      withControlPlane(pinned.cluster, plane),
      plane,
      written,
      decommission,
      ports.registry.description,
    ),
  };
}

/** The items EKS reports differently from the registry, written there; their names. */
async function writeBack(ports: PortsFor<typeof PORTS>, clusterId: string, plane: EksControlPlane): Promise<string[]> {
  const registered = await loadCluster(ports, clusterId);
  const changed = changedEksItems(registered.configItems, plane);
  await writeConfigItems(ports, clusterId, changed);
  return Object.keys(changed);
}

function describe(
  cluster: Cluster,
  plane: EksControlPlane,
  written: readonly string[],
  decommission: boolean,
  registry: string,
): string {
  const where = `EKS cluster ${plane.name} (${plane.status}) at ${cluster.apiServerUrl}`;
  if (decommission) return `${where}: decommissioning through it`;
  const cidr = plane.serviceCidr ? `; service_cidr ${plane.serviceCidr}` : '';
  return written.length
    ? `${where}${cidr}; wrote ${written.join(', ')} to ${registry}`
    : `${where}${cidr}; the registry's eks_* config items are up to date`;
}

export const task = defineTask({
  name: 'ReadControlPlane',
  description: 'zalando-eks: reads the EKS control plane and writes its endpoint, CA and OIDC issuer to the registry',
  input: clusterUpdatePayload(),
  output: StepOutput,
  ports: PORTS,
  step: (payload, ports) => readControlPlane(runRef(payload), ports),
});
