import { restrictPorts } from '../../lambdas/runtime/restrict-ports';
import type { PortFactories } from '../../lambdas/runtime/restrict-ports';
import type { Cluster } from '../../lambdas/core/model/cluster';
import type { KubeCluster } from '../../lambdas/ports/kube-cluster';
import type { NodePoolBackend } from '../../lambdas/ports/node-pool-backend';
import { testCluster } from '../sim/fixtures';

const NEEDS = { pools: 'write', kube: 'write', progress: 'write', artifacts: 'read', clock: 'read' } as const;

/** RollNodePool's factories, each counting its builds. */
function counted() {
  const builds: string[] = [];
  const factories: PortFactories = {
    progress: () => {
      builds.push('progress');
      return {} as never;
    },
    artifacts: () => {
      builds.push('artifacts');
      return {} as never;
    },
    clock: () => {
      builds.push('clock');
      return { now: () => 0, sleep: async () => undefined };
    },
    cluster: {
      pools: (cluster: Cluster) => {
        builds.push(`pools ${cluster.id}`);
        return { id: cluster.id } as unknown as NodePoolBackend;
      },
      kube: (cluster: Cluster) => {
        builds.push(`kube ${cluster.id}`);
        return { id: cluster.id } as unknown as KubeCluster;
      },
    },
  };
  return { factories, builds };
}

describe('restrictPorts', () => {
  it('builds nothing until a member is touched, then each member once', () => {
    // Arrange
    const { factories, builds } = counted();
    const ports = restrictPorts('RollNodePool', NEEDS, factories);
    const before = [...builds];

    // Act
    const clocks = [ports.clock, ports.clock, ports.clock];

    // Assert
    expect(before).toEqual([]);
    expect(clocks[0]).toBe(clocks[2]);
    expect(builds).toEqual(['clock']);
  });

  it('builds cluster members once per cluster id', () => {
    // Arrange
    const { factories, builds } = counted();
    const ports = restrictPorts('RollNodePool', NEEDS, factories);
    const one = testCluster();
    const two = testCluster({ id: 'aws:123456789012:eu-central-1:kube-2' });

    // Act
    const kubes = [ports.forCluster(one).kube, ports.forCluster(two).kube, ports.forCluster({ ...one }).kube];
    void ports.forCluster(one).pools;

    // Assert
    expect(kubes[0]).toBe(kubes[2]);
    expect(kubes[0]).not.toBe(kubes[1]);
    expect(builds).toEqual([`kube ${one.id}`, `kube ${two.id}`, `pools ${one.id}`]);
  });

  it("builds a cluster's members again when its API server URL or config items changed, keeping only the latest", () => {
    // Arrange: a warm Lambda container keeps its ports across invocations; the registry moved the API server between two
    const { factories, builds } = counted();
    const ports = restrictPorts('RollNodePool', NEEDS, factories);
    const before = testCluster();
    const moved = { ...before, apiServerUrl: 'https://api.moved.example.org' };
    const newCa = { ...moved, configItems: { ...moved.configItems, kube_ca_data: 'Q0EK' } };

    // Act
    const kubes = [ports.forCluster(before).kube, ports.forCluster(moved).kube, ports.forCluster(newCa).kube];
    const again = ports.forCluster({ ...newCa }).kube;

    // Assert
    expect(new Set(kubes).size).toBe(3);
    expect(again).toBe(kubes[2]);
    expect(builds).toEqual([`kube ${before.id}`, `kube ${before.id}`, `kube ${before.id}`]);
  });

  it('refuses members the task does not list even when a factory is given', () => {
    // Arrange
    const { factories } = counted();
    const ports = restrictPorts('RollNodePool', NEEDS, { ...factories, registry: () => ({}) as never });

    // Act
    const touch = () => ports.registry;

    // Assert
    expect(touch).toThrow(
      "RollNodePool: ports.registry is not one of the task's ports (declared: artifacts, clock, kube, pools, progress)",
    );
  });
});
