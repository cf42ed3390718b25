import { EMPTY_STATUS } from '../../../lambdas/core/model/cluster';
import { resolveClusterStack } from '../../../lambdas/core/cluster-stacks/resolve-stack';
import { decideStackLayers, skippedStep } from '../../../lambdas/tasks/kit/cluster-stack';
import type { ClusterArtifact } from '../../../lambdas/contracts/artifacts';
import type { ConfigSnapshot } from '../../../lambdas/ports/config-source';
import { testCluster } from '../../support/test-cluster';

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

/** Ports that know nothing of earlier runs: no artefacts, no run records. */
const forgetful = {
  artifacts: { get: async () => undefined, put: async () => undefined },
  progress: { getRun: async () => undefined },
} as never;

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
