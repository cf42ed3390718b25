import { EMPTY_STATUS } from '../../../lambdas/core/model/cluster';
import { resolveClusterStack } from '../../../lambdas/core/cluster-stacks/resolve-stack';
import { decideStackLayers, skippedStep } from '../../../lambdas/tasks/cluster-stacks/cluster-stack';
import type { ClusterArtifact } from '../../../lambdas/contracts/artifacts';
import type { ConfigSnapshot } from '../../../lambdas/ports/config-source';
import { testCluster } from '../../support/test-cluster';
import { FakeClock } from '../../support/fakes/fake-clock';
import { FakeKubeCluster } from '../../support/fakes/fake-kube-cluster';

function stackSnapshot(dir: string, kubernetes: string): ConfigSnapshot {
  const files = new Map([
    [
      `providers/aws/default/${dir}/metadata.yaml`,
      `apiVersion: metadata.clusterstack.x-k8s.io/v1alpha1\nversions:\n  clusterStack: v1\n  kubernetes: ${kubernetes}\n  components:\n    clusterAddon: v1\n    nodeImage: v1\n`,
    ],
    [`providers/aws/default/${dir}/cluster-class/cluster.yaml`, 'Resources: {}\n'],
  ]);
  return { sourceName: 'main', version: 'sha-1', files };
}

/** Ports that know nothing of earlier runs (no artefacts, no run records), with the cluster's API server `kube`. */
function portsWith(kube: FakeKubeCluster) {
  return {
    artifacts: { get: async () => undefined, put: async () => undefined },
    progress: { getRun: async () => undefined },
    forCluster: () => ({ kube }),
  } as never;
}
const unreachable = () => Object.assign(new FakeKubeCluster(new FakeClock()), { reachable: false });
const forgetful = portsWith(unreachable());

/** A reachable cluster whose API server runs `apiServer` and whose nodes report these kubelets. */
function liveCluster(apiServer: string, kubelets: Record<string, string>): FakeKubeCluster {
  const kube = new FakeKubeCluster(new FakeClock());
  kube.apiServerVersion = apiServer;
  for (const [name, kubeletVersion] of Object.entries(kubelets))
    kube.addNode(name, 'eu-central-1a', `i-${name}`, { kubeletVersion });
  return kube;
}

describe('decideStackLayers', () => {
  it('checks the Kubernetes upgrade against the stack the version names when the old run left no artefact', async () => {
    const cluster = testCluster({
      configItems: { cluster_stack: 'aws/default/1-32' },
      status: { ...EMPTY_STATUS, currentVersion: 'sha-0;stack=aws/default/1-30@v3#hash' },
    });
    const snapshots = [stackSnapshot('1-32', 'v1.32.0')];
    const config = { snapshots, stack: resolveClusterStack(cluster, snapshots) };
    await expect(decideStackLayers(forgetful, cluster, config, { main: 'sha-1' }, false)).rejects.toThrow(
      /Kubernetes 1\.30 → 1\.32: one minor at a time/,
    );
  });

  describe('the Kubernetes upgrade rules against the live cluster', () => {
    const upgrading = (to: string, from = '1-30') => {
      const cluster = testCluster({
        configItems: { cluster_stack: `aws/default/${to}` },
        status: { ...EMPTY_STATUS, currentVersion: `sha-0;stack=aws/default/${from}@v3#hash` },
      });
      const snapshots = [stackSnapshot(to, `v${to.replace('-', '.')}.0`)];
      return { cluster, config: { snapshots, stack: resolveClusterStack(cluster, snapshots) } };
    };

    it('refuses naming the nodes an interrupted upgrade left outside the skew, though the recorded version allows it', async () => {
      const { cluster, config } = upgrading('1-31');
      const kube = liveCluster('v1.30.5', { 'ip-m': 'v1.30.5', 'ip-w1': 'v1.27.9-eks-1', 'ip-w2': 'v1.27.9' });
      await expect(decideStackLayers(portsWith(kube), cluster, config, { main: 'sha-1' }, false)).rejects.toThrow(
        'Kubernetes 1.30 → 1.31: nodes ip-w1, ip-w2 (kubelet 1.27) would be 4 minors behind the API server 1.31',
      );
      // read only: no node was patched, nothing applied
      expect(kube.patches).toEqual([]);
      expect(kube.calls.filter((c) => !['ready', 'serverVersion', 'listNodes'].includes(c))).toEqual([]);
    });

    it('takes the API server version from the cluster, not from the stack it recorded', async () => {
      // The recorded stack is 1.30, but the control plane already runs 1.31 (an upgrade that stopped after the
      // masters): 1.32 is the next minor, and the workers still on 1.30 stay within the skew.
      const { cluster, config } = upgrading('1-32');
      const kube = liveCluster('v1.31.2', { 'ip-m': 'v1.31.2', 'ip-w': 'v1.30.5' });
      const decision = await decideStackLayers(portsWith(kube), cluster, config, { main: 'sha-1' }, false);
      expect(decision?.upgrade).toBe(
        'Kubernetes upgrade 1.31 → 1.32: control plane (master pools) first, then the workers',
      );
      expect(decision?.kubernetes).toBe(
        'Kubernetes checked live: API server v1.31.2; kubelets v1.31.2 (ip-m), v1.30.5 (ip-w)',
      );
    });

    it('falls back to the recorded version when the cluster cannot be reached, and says so', async () => {
      const { cluster, config } = upgrading('1-31');
      const decision = await decideStackLayers(forgetful, cluster, config, { main: 'sha-1' }, false);
      expect(decision?.upgrade).toMatch(/^Kubernetes upgrade 1\.30 → 1\.31/);
      expect(decision?.kubernetes).toBe(
        'Kubernetes versions not read live (the API server is not reachable): checked against the recorded version 1.30',
      );
    });
  });

  it('runs every step when nothing is known of the current stack', async () => {
    const cluster = testCluster({ configItems: { cluster_stack: 'aws/default/1-30' } });
    const snapshots = [stackSnapshot('1-30', 'v1.30.1')];
    const config = { snapshots, stack: resolveClusterStack(cluster, snapshots) };
    const decision = await decideStackLayers(forgetful, cluster, config, { main: 'sha-1' }, false);
    expect(decision?.layerPlan.allBecause).toBe('nothing is recorded of the stack the cluster runs');
    expect(decision?.upgrade).toBeUndefined();
  });
});

describe('skippedStep', () => {
  const pinned = (steps: Partial<Record<string, boolean>>): ClusterArtifact =>
    ({
      layerPlan: {
        from: 'aws/default/1-30@v1',
        to: 'aws/default/1-30@v2',
        changed: ['clusterAddon'],
        steps: {
          mainStack: false,
          cfManifestStacks: false,
          poolStacks: false,
          rollPools: false,
          manifests: true,
          ...steps,
        },
      },
    }) as unknown as ClusterArtifact;

  it('answers DONE with the reason for a step of unchanged layers, nothing for a step that runs', () => {
    expect(skippedStep(pinned({}), 'mainStack')).toEqual({
      status: 'DONE',
      waitSeconds: 1,
      message: 'skipped: layer cluster-class unchanged (aws/default/1-30@v1 → aws/default/1-30@v2)',
    });
    expect(skippedStep(pinned({}), 'manifests')).toBeUndefined();
  });

  it('never skips for a cluster without a stack', () => {
    expect(skippedStep({} as ClusterArtifact, 'mainStack')).toBeUndefined();
  });
});
