import {
  NODEPOOL_LABEL,
  driftReason,
  isDeleting,
  nodeClaimNodeName,
  nodeClaimProviderId,
  nodeClassName,
} from '../../core/karpenter/karpenter-objects';
import { instanceIdFromProviderId } from '../../core/rollout/pool-snapshot';
import type { KubeCluster, KubeObject, NodeInfo } from '../../ports/kube-cluster';
import type { ClusterRef, NodePoolBackend, PoolInstance, PoolState } from '../../ports/node-pool-backend';

/** What a Karpenter pool looks like now: its NodePool and EC2NodeClass (absent once deleted), nodes and NodeClaims. */
export interface KarpenterPoolView {
  readonly nodePool?: KubeObject;
  readonly nodeClass?: KubeObject;
  readonly state: PoolState;
}

/**
 * A Karpenter pool seen through the NodePoolBackend port, so the roll (planning, drains, volume-detach wait, health
 * gate, progress) is the ASG roll's (CLM `aws_ec2.go` with Kubernetes objects, §7.1): the pool's instances are its
 * NodeClaims and the nodes labelled `karpenter.sh/nodepool=<pool>`; an instance is outdated when its NodeClaim drifted
 * (core/karpenter/karpenter-objects.ts `driftReason`); `terminate` is EC2 TerminateInstances (Karpenter removes the
 * Node and NodeClaim and launches what pending pods need); `scale` and `markForDecommission` do nothing: Karpenter
 * decides capacity.
 */
export class KarpenterPoolBackend implements NodePoolBackend {
  constructor(
    private readonly kube: KubeCluster,
    private readonly ec2: Pick<NodePoolBackend, 'terminateInstances' | 'karpenterInstances'>,
  ) {}

  /** The NodePool, its EC2NodeClass, and the pool as instances; undefined when the API does not serve NodeClaims. */
  async view(
    poolName: string,
    nodes?: readonly NodeInfo[],
    cluster?: ClusterRef,
  ): Promise<KarpenterPoolView | undefined> {
    if (!(await this.kube.servesKind('NodeClaim'))) return undefined;
    const nodePool = (await this.kube.list('NodePool')).find((o) => o.metadata.name === poolName);
    const className = nodeClassName(nodePool, poolName);
    const nodeClass = (await this.kube.servesKind('EC2NodeClass'))
      ? (await this.kube.list('EC2NodeClass')).find((o) => o.metadata.name === className)
      : undefined;
    const claims = await this.kube.list('NodeClaim', { labelSelector: `${NODEPOOL_LABEL}=${poolName}` });
    const poolNodes = (nodes ?? (await this.kube.listNodes())).filter((n) => n.labels[NODEPOOL_LABEL] === poolName);
    // EC2 knows first that an instance is shutting down (Karpenter removes its NodeClaim and Node only afterwards).
    const running = cluster
      ? new Set((await this.ec2.karpenterInstances(cluster, poolName)).map((i) => i.instanceId))
      : undefined;
    const gone = (id: string | undefined) => id !== undefined && running !== undefined && !running.has(id);
    const instances: PoolInstance[] = [];
    const claimed = new Set<string>();
    for (const claim of claims) {
      const providerId = nodeClaimProviderId(claim);
      const nodeName = nodeClaimNodeName(claim);
      const node = poolNodes.find((n) => (providerId && n.providerId === providerId) || n.name === nodeName);
      const instanceId = instanceIdFromProviderId(providerId || node?.providerId || '');
      if (node) claimed.add(node.name);
      // Still launching (no instance yet): it is capacity on its way, not something to roll.
      const id = instanceId ?? `nodeclaim/${claim.metadata.name}`;
      const deleting = isDeleting(claim) || gone(instanceId);
      instances.push({
        instanceId: id,
        availabilityZone: zoneOf(node, providerId),
        lifecycleState: deleting ? 'Terminating' : node?.ready ? 'InService' : 'Pending',
        healthy: !deleting,
        outdated: driftReason(claim, nodePool, nodeClass) !== undefined,
        asgName: '',
        ...(claim.metadata.creationTimestamp ? { launchedAt: Date.parse(claim.metadata.creationTimestamp) } : {}),
      });
    }
    // A node of the pool without a NodeClaim (its claim was deleted by hand): nothing says it is current.
    for (const node of poolNodes) {
      if (claimed.has(node.name)) continue;
      const instanceId = instanceIdFromProviderId(node.providerId);
      if (!instanceId) continue;
      instances.push({
        instanceId,
        availabilityZone: zoneOf(node, node.providerId),
        lifecycleState: gone(instanceId) ? 'Terminating' : node.ready ? 'InService' : 'Pending',
        healthy: true,
        outdated: true,
        asgName: '',
      });
    }
    const alive = instances.filter((i) => i.lifecycleState !== 'Terminating').length;
    return {
      ...(nodePool ? { nodePool } : {}),
      ...(nodeClass ? { nodeClass } : {}),
      state: { poolName, desired: alive, min: 0, max: alive, groups: [], instances },
    };
  }

  async getPool(cluster: ClusterRef, poolName: string): Promise<PoolState | undefined> {
    const view = await this.view(poolName, undefined, cluster);
    return view && (view.nodePool || view.state.instances.length) ? view.state : undefined;
  }

  /** Karpenter decides capacity from pending pods. */
  async scale(): Promise<void> {}

  /** No group to mark: Karpenter has no desired capacity to drift. */
  async markPreRollSize(): Promise<void> {}

  async restorePreRollSize(): Promise<void> {}

  async terminate(cluster: ClusterRef, instanceId: string): Promise<void> {
    // A NodeClaim that never got an instance has nothing to terminate.
    if (instanceId.startsWith('nodeclaim/')) return;
    await this.ec2.terminateInstances(cluster, [instanceId]);
  }

  /** Removal deletes the NodePool (RemoveDeletedPools): Karpenter then launches nothing more for it. */
  async markForDecommission(): Promise<void> {}

  karpenterInstances(cluster: ClusterRef, pool?: string) {
    return this.ec2.karpenterInstances(cluster, pool);
  }

  terminateInstances(cluster: ClusterRef, instanceIds: readonly string[]) {
    return this.ec2.terminateInstances(cluster, instanceIds);
  }
}

/** The node's zone label (CLM: topology, then the beta label), else the zone in the provider id. */
function zoneOf(node: NodeInfo | undefined, providerId: string): string {
  return (
    node?.labels['topology.kubernetes.io/zone'] ??
    node?.labels['failure-domain.beta.kubernetes.io/zone'] ??
    node?.zone ??
    /^aws:\/\/\/([^/]+)\//.exec(providerId)?.[1] ??
    ''
  );
}
