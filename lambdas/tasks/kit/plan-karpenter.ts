import { objectRef } from '../../core/manifests/inventory';
import { fieldDiff } from '../../core/plan/field-diff';
import type { ObjectPlan } from '../../core/plan/plan-document';
import type { ClusterRender } from '../../core/render/render-cluster';
import type { KubeCluster } from '../../ports/kube-cluster';

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
