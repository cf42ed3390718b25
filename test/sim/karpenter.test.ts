// The simulated Karpenter controller (lambdas/sim/karpenter.ts): idle until its CRDs and Deployment are up, then it
// hashes NodePools and EC2NodeClasses, launches NodeClaims + instances + nodes for the pods no node takes, marks
// NodeClaims Drifted when the hashes change, and removes Node and NodeClaim when the instance is terminated.
import type { KubeObject, Taint } from '../../lambdas/ports/kube-cluster';
import {
  KARPENTER_CONTROLLER,
  KARPENTER_CRDS,
  batchDeployment,
  burstNodeClass,
  burstNodePool,
} from './karpenter-fixtures';
import { clusterRef, runningCluster } from './fixtures';

const TAINTS: Taint[] = [{ key: 'dedicated', value: 'burst', effect: 'NoSchedule' }];
const NODEPOOL = burstNodePool(TAINTS);
const WORKLOAD = batchDeployment(4, TAINTS);

describe('the simulated Karpenter controller', () => {
  it('does nothing until its controller runs, then launches nodes for the pods, drifts and replaces as Karpenter does', async () => {
    const { world, ports, cluster } = await runningCluster({}, 2);
    const apply = (objects: KubeObject[]) => ports.kube.apply(objects, { fieldManager: 'test' });
    await apply([...KARPENTER_CRDS, burstNodeClass('ami-0000000000000000a'), NODEPOOL, WORKLOAD]);
    world.runUntilIdle();
    // no controller yet: nothing hashed, nothing launched, the pods stay pending
    expect(await ports.kube.list('NodeClaim')).toEqual([]);
    expect((await ports.kube.list('NodePool'))[0]!.metadata.annotations ?? {}).toEqual({});
    expect(world.describe(cluster.id).pods.pending).toBe(4);

    await apply([KARPENTER_CONTROLLER]);
    world.runUntilIdle();
    const pool = (await ports.kube.list('NodePool'))[0]!;
    expect(pool.metadata.annotations).toMatchObject({
      'karpenter.sh/nodepool-hash': expect.stringMatching(/^[0-9a-f]{16}$/),
      'karpenter.sh/nodepool-hash-version': 'v3',
    });
    // four pods, two per node (kubelet maxPods 2): two NodeClaims, two instances, two tainted nodes
    const claims = await ports.kube.list('NodeClaim');
    expect(claims).toHaveLength(2);
    const burstNodes = (await ports.kube.listNodes()).filter((n) => n.labels['karpenter.sh/nodepool'] === 'burst');
    expect(burstNodes).toHaveLength(2);
    expect(burstNodes.every((n) => n.taints.some((t) => t.key === 'dedicated' && t.value === 'burst'))).toBe(true);
    expect(claims.map((c) => (c.status as any).nodeName).sort()).toEqual(burstNodes.map((n) => n.name).sort());
    expect(world.describe(cluster.id).pods.pending).toBe(0);
    const instances = await ports.pools.karpenterInstances(clusterRef(cluster), 'burst');
    expect(instances).toHaveLength(2);

    // a new image in the EC2NodeClass: its hash changes and both NodeClaims drift
    await apply([burstNodeClass('ami-0000000000000000b')]);
    world.runUntilIdle();
    const drifted = await ports.kube.list('NodeClaim');
    expect(
      drifted.map((c) => (c.status as any).conditions.some((x: any) => x.type === 'Drifted' && x.status === 'True')),
    ).toEqual([true, true]);

    // terminating an instance takes its Node and NodeClaim; the evicted pods get a new, current NodeClaim
    await ports.pools.terminateInstances(clusterRef(cluster), [instances[0]!.instanceId]);
    world.runUntilIdle();
    const after = await ports.kube.list('NodeClaim');
    expect(after).toHaveLength(2);
    expect(after.filter((c) => !(c.status as any).conditions.some((x: any) => x.type === 'Drifted'))).toHaveLength(1);
    expect((await ports.pools.karpenterInstances(clusterRef(cluster), 'burst')).map((i) => i.instanceId)).not.toContain(
      instances[0]!.instanceId,
    );
    expect(world.describe(cluster.id).pods.pending).toBe(0);
  });

  it("launches no NodeClaim past the NodePool's limits, records its usage, and launches again once limits allow", async () => {
    // Arrange: m6i.large nodes (2 vCPU, 8 GiB), two pods per node, a pool limited to 4 vCPU: two nodes at most
    const { world, ports, cluster } = await runningCluster({}, 2);
    const apply = (objects: KubeObject[]) => ports.kube.apply(objects, { fieldManager: 'test' });
    const limited = (limits: Record<string, string>): KubeObject => ({
      ...NODEPOOL,
      spec: { ...(NODEPOOL.spec as object), limits },
    });
    const sixPods = { ...WORKLOAD, spec: { ...(WORKLOAD.spec as object), replicas: 6 } };

    // Act
    await apply([
      ...KARPENTER_CRDS,
      KARPENTER_CONTROLLER,
      burstNodeClass('ami-0000000000000000a'),
      limited({ cpu: '4' }),
      sixPods,
    ]);
    world.runUntilIdle();

    // Assert: two nodes, two pods Pending, and the pool's status says what it holds
    expect(await ports.kube.list('NodeClaim')).toHaveLength(2);
    expect(world.describe(cluster.id).pods.pending).toBe(2);
    expect(((await ports.kube.list('NodePool'))[0]!.status as any).resources).toEqual({
      cpu: '4',
      memory: `${8 * 1024 * 1024 * 2}Ki`,
      nodes: '2',
    });

    // a memory limit binds the same way; raising the limits lets the third node launch
    await apply([limited({ cpu: '100', memory: '16Gi' })]);
    world.runUntilIdle();
    expect(await ports.kube.list('NodeClaim')).toHaveLength(2);
    await apply([limited({ cpu: '6', memory: '24Gi' })]);
    world.runUntilIdle();
    expect(await ports.kube.list('NodeClaim')).toHaveLength(3);
    expect(world.describe(cluster.id).pods.pending).toBe(0);
    expect(
      (await ports.kube.list('NodeClaim')).every(
        (c) => c.metadata.labels?.['node.kubernetes.io/instance-type'] === 'm6i.large',
      ),
    ).toBe(true);
  });

  it('refuses a NodePool whose limits are not quantities, as the API server does by the CRD schema, and keeps none', async () => {
    const { ports } = await runningCluster({}, 2);
    await ports.kube.apply([...KARPENTER_CRDS], { fieldManager: 'test' });
    const pool = { ...NODEPOOL, spec: { ...(NODEPOOL.spec as object), limits: { cpu: 'lots' } } };

    await expect(ports.kube.apply([pool], { fieldManager: 'test' })).rejects.toThrow(
      'NodePool.karpenter.sh "burst" is invalid: spec.limits.cpu: Invalid value: "lots"',
    );
    expect(await ports.kube.list('NodePool')).toEqual([]);
    const valid = { ...NODEPOOL, spec: { ...(NODEPOOL.spec as object), limits: { cpu: 8, memory: '64Gi' } } };
    await expect(ports.kube.apply([valid], { fieldManager: 'test' })).resolves.toHaveLength(1);
  });
});
