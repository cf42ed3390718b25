import { runningCluster } from './fixtures';

const OPTS = { fieldManager: 'clm' };

function deployment(name: string, replicas: number, cpu: string, memory: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: 'x', resources: { requests: { cpu, memory } } }] },
      },
    },
  };
}

describe('the simulated scheduler and the pods requests', () => {
  it('reports each node allocatable from its instance type, as the kubelet reserves it', async () => {
    // Arrange: m5.large workers (2 vCPU, 8 GiB)
    const { ports } = await runningCluster({}, 1);

    // Act
    const nodes = await ports.kube.list('Node');

    // Assert
    const worker = nodes.find((n) => n.metadata.labels?.['node.kubernetes.io/role'] === 'worker')!;
    expect((worker.status as { allocatable: unknown }).allocatable).toEqual({
      cpu: '1930m',
      memory: String((8192 - 255 - 1210 - 100) * 1024 * 1024),
      pods: '110',
    });
  });

  it('leaves a pod Pending when no node has room for its requests, and places those that fit', async () => {
    // Arrange: 3 workers of 1930m CPU each
    const { world, ports } = await runningCluster({}, 3);

    // Act: 3 pods of 1500m fit one per node; a 4th of 1500m and one asking 3 CPUs do not fit anywhere
    await ports.kube.apply([deployment('wide', 4, '1500m', '1Gi'), deployment('huge', 1, '3', '1Gi')], OPTS);
    world.advance(60_000);
    const pods = await ports.kube.listPods({ namespace: 'default' });

    // Assert
    const placed = pods.filter((p) => p.nodeName);
    expect(placed.filter((p) => p.name.startsWith('wide-'))).toHaveLength(3);
    expect(new Set(placed.map((p) => p.nodeName)).size).toBe(3);
    expect(
      pods
        .filter((p) => !p.nodeName)
        .map((p) => p.name.split('-')[0])
        .sort(),
    ).toEqual(['huge', 'wide']);
  });

  it('frees a node for a Pending pod once the pod holding it is gone', async () => {
    // Arrange: 1 worker full with one 1500m pod, a second one Pending
    const { world, ports } = await runningCluster({ timings: { podTerminationSeconds: 30 } }, 1);
    await ports.kube.apply([deployment('wide', 1, '1500m', '1Gi'), deployment('next', 1, '1500m', '1Gi')], OPTS);
    world.advance(20_000);
    const before = await ports.kube.listPods({ namespace: 'default' });
    const holder = before.find((p) => p.nodeName)!;
    const waiting = before.find((p) => !p.nodeName)!;

    // Act: scale the holder away; it terminates for 30 s, holding its room until it is gone
    await ports.kube.scaleDeployment('default', holder.name.split('-')[0]!, 0);
    world.advance(10_000);
    const during = await ports.kube.listPods({ namespace: 'default' });
    world.advance(40_000);
    const after = await ports.kube.listPods({ namespace: 'default' });

    // Assert
    expect(holder.nodeName).toBeDefined();
    expect(before).toHaveLength(2);
    expect(during.find((p) => p.name === waiting.name)?.nodeName).toBeUndefined();
    expect(after.find((p) => p.name === waiting.name)?.nodeName).toBe(holder.nodeName);
  });
});
