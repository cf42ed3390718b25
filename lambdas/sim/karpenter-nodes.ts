import { NODEPOOL_LABEL } from '../core/karpenter/karpenter-objects';
import type { Taint } from '../ports/kube-cluster';
import { privateDnsName } from './aws/account';
import { NODECLAIM_TAG, terminateKarpenterInstance } from './aws/karpenter-instances';
import { poolShape } from './karpenter';
import { joinNode } from './kube/nodes';
import { MAX_PODS_PER_NODE } from './kube/scheduler';
import { metaOf, specOf, storedOfKind } from './kube/stored';
import type { Json } from './kube/stored';
import type { SimContext } from './sim-context';
import type { AccountState, InstanceRecord, KubeState } from './world-state';

/**
 * The simulated Karpenter's side of an instance's life (engine.ts calls these): a NodeClaim's instance boots and its
 * Node joins with the NodePool's labels, taints and maxPods; an instance is gone and its NodeClaim goes with it.
 */

const obj = (stored: { obj: Json }): Json => stored.obj;

/** The instance of a NodeClaim booted: its Node joins with the NodePool's labels, taints and maxPods. */
export function karpenterInstanceBooted(
  ctx: SimContext,
  kube: KubeState,
  account: AccountState,
  instance: InstanceRecord,
  notReady?: { readonly reason: string; readonly message: string },
): void {
  const claimName = instance.tags[NODECLAIM_TAG] ?? '';
  const entry = storedOfKind(kube, 'karpenter.sh', 'NodeClaim').find(([, c]) => metaOf(obj(c)).name === claimName);
  if (!entry) {
    // Its NodeClaim is gone (deleted while launching): Karpenter terminates the orphan.
    terminateKarpenterInstance(ctx, account, instance);
    return;
  }
  const [, claim] = entry;
  const pool = storedOfKind(kube, 'karpenter.sh', 'NodePool').find(
    ([, p]) => metaOf(obj(p)).name === instance.tags[NODEPOOL_LABEL],
  );
  const shape = pool ? poolShape(pool[1]) : undefined;
  const node = joinNode(ctx, kube, {
    name: privateDnsName(instance.privateIp, account.region),
    instanceId: instance.id,
    zone: instance.az,
    region: account.region,
    pool: instance.tags[NODEPOOL_LABEL]!,
    role: 'worker',
    instanceType: instance.instanceType,
    ...(notReady ? { notReady } : {}),
  });
  const claimLabels = (metaOf(obj(claim)).labels ?? {}) as Record<string, string>;
  node.labels = {
    ...node.labels,
    ...claimLabels,
    'karpenter.sh/initialized': 'true',
    'karpenter.sh/registered': 'true',
  };
  node.taints = ((specOf(obj(claim)).taints ?? []) as Taint[]).map((t) => ({ ...t }));
  if (shape && shape.maxPods !== MAX_PODS_PER_NODE) node.maxPods = shape.maxPods;
  const status = (claim.obj.status ?? {}) as Json;
  const conditions = ((status.conditions ?? []) as Json[]).filter(
    (c) => c.type !== 'Registered' && c.type !== 'Initialized',
  );
  claim.obj = {
    ...claim.obj,
    status: {
      ...status,
      nodeName: node.name,
      conditions: [
        ...conditions,
        { type: 'Registered', status: 'True', lastTransitionTime: ctx.iso() },
        { type: 'Initialized', status: 'True', lastTransitionTime: ctx.iso() },
      ],
    },
  };
}

/** The instance is gone: Karpenter removes its NodeClaim (the engine removes the Node). */
export function karpenterInstanceGone(ctx: SimContext, kube: KubeState, instanceId: string): void {
  for (const [key, claim] of storedOfKind(kube, 'karpenter.sh', 'NodeClaim')) {
    const providerId = String(((claim.obj.status ?? {}) as Json).providerID ?? '');
    if (providerId.endsWith(`/${instanceId}`)) {
      delete kube.objects[key];
      ctx.dirty.add(kube.clusterId);
    }
  }
}
