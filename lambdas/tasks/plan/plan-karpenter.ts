import { disruptionBudget, heldUntil } from '../../core/karpenter/disruption-budget';
import { changeDriftsNodes } from '../../core/karpenter/karpenter-objects';
import { objectRef } from '../../core/manifests/inventory';
import type { Cluster } from '../../core/model/cluster';
import { clusterRef } from '../../core/model/cluster-ref';
import { fieldDiff } from '../../core/plan/field-diff';
import type { ObjectPlan } from '../../core/plan/plan-document';
import { rollEstimate, type PoolRollEstimate } from '../../core/plan/roll-estimate';
import type { ClusterRender } from '../../core/render/render-cluster';
import { isGoneInstance } from '../../core/rollout/pool-snapshot';
import { rollPolicy } from '../../core/rollout/roll-policy';
import type { Clock } from '../../ports/clock';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { NodePoolBackend } from '../../ports/node-pool-backend';
import { KarpenterPoolBackend } from '../karpenter/karpenter-pool-backend';

/**
 * What ApplyKarpenterPools would change: each Karpenter pool's provisioners objects (NodePool, EC2NodeClass), listed
 * under `node-pools/<pool>/provisioners.yaml`. With an API server that serves their kinds they are dry-run applied and
 * compared with the live objects like the manifests; without one (a new cluster, or Karpenter's CRDs not applied yet)
 * they would all be created once the controller is ready.
 */
export async function karpenterObjectPlans(
  kube: KubeCluster | undefined,
  render: Pick<ClusterRender, 'karpenterPools'>,
  fieldManager: string,
  problems: string[],
): Promise<ObjectPlan[]> {
  const plans: ObjectPlan[] = [];
  for (const pool of render.karpenterPools ?? []) {
    if (pool.provisioners.length === 0) continue;
    const file = `node-pools/${pool.name}/provisioners.yaml`;
    const create = () =>
      pool.provisioners.map((o) => ({ ref: objectRef(o), file, action: 'create' as const, fields: [] }));
    let served = kube !== undefined;
    for (const o of pool.provisioners) served = served && (await kube!.servesKind(o.kind, o.apiVersion));
    if (!kube || !served) {
      plans.push(...create());
      continue;
    }
    try {
      const results = await kube.apply(pool.provisioners, { fieldManager, dryRun: true });
      for (const [index, object] of pool.provisioners.entries()) {
        const live = (await kube.list(object.kind)).find((o) => o.metadata.name === object.metadata.name);
        const fields = live ? fieldDiff(live, object) : [];
        const action = results[index]?.action === 'created' ? 'create' : fields.length ? 'update' : 'unchanged';
        plans.push({ ref: objectRef(object), file, action, fields });
      }
    } catch (error) {
      problems.push(`${file}: the dry-run apply failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return plans;
}

/**
 * Which Karpenter pools an update would roll: every live node of a pool whose NodePool or EC2NodeClass changes in a
 * way that drifts it (`objects`, from karpenterObjectPlans), otherwise the nodes that drifted already; batches of the
 * rendered NodePool's disruption budget as it stands now. Without an API server that answers, none is estimated.
 */
export async function karpenterPoolRolls(
  cp: { readonly kube: KubeCluster | undefined; readonly pools: NodePoolBackend },
  cluster: Cluster,
  render: Pick<ClusterRender, 'karpenterPools' | 'nodePools'>,
  objects: readonly ObjectPlan[],
  clock: Clock,
): Promise<PoolRollEstimate[]> {
  const { kube } = cp;
  if (!kube || !render.karpenterPools?.length) return [];
  const now = clock.now();
  const backend = new KarpenterPoolBackend(kube, cp.pools);
  const nodes = await kube.listNodes();
  const estimates: PoolRollEstimate[] = [];
  for (const pool of render.karpenterPools) {
    const view = await backend.view(pool.name, nodes, clusterRef(cluster));
    const live = (view?.state.instances ?? []).filter((i) => !isGoneInstance(i));
    const file = `node-pools/${pool.name}/provisioners.yaml`;
    const drifting = objects.some(
      (o) => o.file === file && o.action === 'update' && o.fields.some((f) => changeDriftsNodes(o.ref.kind, f.path)),
    );
    const count = drifting ? live.length : live.filter((i) => i.outdated).length;
    const rendered = pool.provisioners.find((o) => o.kind === 'NodePool');
    const frozen = disruptionBudget(rendered, live.length, now);
    // A scheduled 0 holds the roll: it goes in the batches of the budget that applies once the window ends.
    const until = heldUntil(frozen);
    const held = until !== undefined ? { at: until, by: frozen.from } : undefined;
    const budget = held ? disruptionBudget(rendered, live.length, held.at) : frozen;
    const configured = cluster.nodePools.find((p) => p.name === pool.name);
    const items = render.nodePools.find((p) => p.name === pool.name)?.configItems ?? {};
    const { canary, canarySoakMs } = configured
      ? rollPolicy(configured, items, cluster.id)
      : { canary: false, canarySoakMs: 0 };
    const estimate = rollEstimate(pool.name, count, {
      maxSurge: budget.nodes,
      maxUnavailable: 0,
      canary,
      canarySoakMs,
    });
    estimates.push(held && count > 0 ? { ...estimate, heldUntil: held } : estimate);
  }
  return estimates;
}
