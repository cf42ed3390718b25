// The simulated scheduler keeps kube-scheduler's hard constraints: required node affinity, required pod
// anti-affinity (per node and per zone) and DoNotSchedule topology spread leave a pod Pending where kube-scheduler
// would (https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/,
// https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/). The same pods against a real
// kube-scheduler: test/integration/kube/scheduling-constraints.int.test.ts.
import type { PodInfo } from '../../lambdas/ports/kube-cluster';
import { runningCluster } from './fixtures';

const OPTS = { fieldManager: 'clm' };
const WORKER = { 'node.kubernetes.io/role': 'worker' };

function deployment(name: string, replicas: number, spec: Record<string, unknown>, cpu = '100m') {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: 'x', resources: { requests: { cpu, memory: '64Mi' } } }], ...spec },
      },
    },
  };
}

const antiAffinity = (app: string, topologyKey: string) => ({
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app } }, topologyKey }],
    },
  },
});

async function placed(replicas: readonly ReturnType<typeof deployment>[], workers = 3) {
  const { world, ports } = await runningCluster({}, workers);
  await ports.kube.apply([...replicas], OPTS);
  world.advance(60_000);
  const pods = await ports.kube.listPods({ namespace: 'default' });
  const nodes = await ports.kube.list('Node');
  const zoneOf = new Map(nodes.map((n) => [n.metadata.name, n.metadata.labels?.['topology.kubernetes.io/zone']]));
  const of = (app: string) => pods.filter((p: PodInfo) => p.name.startsWith(`${app}-`));
  return { of, zoneOf, nodes };
}

describe('the simulated scheduler and required constraints', () => {
  it('places one replica per node under required anti-affinity by hostname, and leaves the rest Pending', async () => {
    // Act: 4 replicas that must not share a node, 3 workers (each with room for all 4)
    const { of } = await placed([
      deployment('solo', 4, { nodeSelector: WORKER, ...antiAffinity('solo', 'kubernetes.io/hostname') }),
    ]);

    // Assert
    const bound = of('solo').filter((p) => p.nodeName);
    expect(bound).toHaveLength(3);
    expect(new Set(bound.map((p) => p.nodeName)).size).toBe(3);
    expect(of('solo').filter((p) => !p.nodeName)).toHaveLength(1);
  });

  it('places one replica per zone under required anti-affinity by zone', async () => {
    // Arrange: 4 workers over the cluster's zones
    const { of, zoneOf } = await placed(
      [deployment('zonal', 5, { nodeSelector: WORKER, ...antiAffinity('zonal', 'topology.kubernetes.io/zone') })],
      4,
    );

    // Assert: as many placed as there are zones with a worker, each in its own zone; the rest Pending
    const zones = new Set([...zoneOf.values()]);
    const bound = of('zonal').filter((p) => p.nodeName);
    expect(new Set(bound.map((p) => zoneOf.get(p.nodeName!))).size).toBe(bound.length);
    expect(bound.length).toBeLessThanOrEqual(zones.size);
    expect(bound.length).toBeGreaterThan(0);
    expect(of('zonal').filter((p) => !p.nodeName)).toHaveLength(5 - bound.length);
  });

  it('leaves a pod Pending whose required node affinity no node matches', async () => {
    // Act
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'disktype', operator: 'In', values: ['ssd'] }] }],
        },
      },
    };
    const { of } = await placed([deployment('ssd', 1, { affinity })]);

    // Assert
    expect(of('ssd').map((p) => p.nodeName)).toEqual([undefined]);
  });

  it('keeps DoNotSchedule spread: a full node still counts as a domain, so a third replica stays Pending', async () => {
    // Arrange: the third worker is filled by a pod pinned to it
    const { world, ports } = await runningCluster({}, 3);
    const workers = (await ports.kube.list('Node'))
      .filter((n) => n.metadata.labels?.['node.kubernetes.io/role'] === 'worker')
      .map((n) => n.metadata.name)
      .sort();
    const pin = { nodeSelector: { 'kubernetes.io/hostname': workers[2]! } };
    await ports.kube.apply([deployment('filler', 1, pin, '1900m')], OPTS);
    world.advance(30_000);

    // Act: 3 replicas, maxSkew 1 per hostname, among the workers
    const spread = {
      nodeSelector: WORKER,
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'kubernetes.io/hostname',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'spread' } },
        },
      ],
    };
    await ports.kube.apply([deployment('spread', 3, spread)], OPTS);
    world.advance(60_000);
    const pods = (await ports.kube.listPods({ namespace: 'default' })).filter((p) => p.name.startsWith('spread-'));

    // Assert: one on each of the two workers with room; the third would make a skew of 2 against the full worker
    expect(
      pods
        .filter((p) => p.nodeName)
        .map((p) => p.nodeName)
        .sort(),
    ).toEqual([workers[0], workers[1]]);
    expect(pods.filter((p) => !p.nodeName)).toHaveLength(1);
  });
});
