import { resolveClusterStack, stackOfVersion, withStackTree } from '../../../lambdas/core/cluster-stacks/resolve-stack';
import { resolveClusterConfigVersion } from '../../../lambdas/core/version/resolve-config-version';
import type { ConfigSnapshot } from '../../../lambdas/ports/config-source';
import { ConfigError } from '../../../lambdas/shared/errors';
import { testCluster } from '../../support/test-cluster';

const DIR = 'providers/aws/default/1-30/';

function metadata(stack: string, addon = 'v1', image = 'v1', kubernetes = 'v1.30.5'): string {
  return `apiVersion: metadata.clusterstack.x-k8s.io/v1alpha1
versions:
  clusterStack: ${stack}
  kubernetes: ${kubernetes}
  components:
    clusterAddon: ${addon}
    nodeImage: ${image}
`;
}

function stackFiles(version: string, greeting = 'hello'): Record<string, string> {
  return {
    [`${DIR}metadata.yaml`]: metadata(version),
    [`${DIR}cluster-class/cluster.yaml`]: 'Resources: {}\n',
    [`${DIR}cluster-class/config-defaults.yaml`]: 'drain_grace_period: 10m\n',
    [`${DIR}cluster-class/node-pools/worker-default/stack.yaml`]: 'Resources: {}\n',
    [`${DIR}cluster-class/cf-manifests/alerts.yaml`]: 'Resources: {}\n',
    [`${DIR}node-image/config-defaults.yaml`]: 'ami_id: ami-1\n',
    [`${DIR}node-image/node-pools/worker-default/userdata.yaml`]: 'userdata\n',
    [`${DIR}node-image/packer/build.json`]: '{}',
    [`${DIR}cluster-addon/20-web/configmap.yaml`]: `greeting: ${greeting}\n`,
    [`${DIR}cluster-addon/deletions.yaml`]: 'pre_apply: []\n',
  };
}

function snapshot(files: Record<string, string>, version = 'sha-1', sourceName = 'main'): ConfigSnapshot {
  return { sourceName, version, files: new Map(Object.entries(files)) };
}

const pinned = (items: Record<string, string>) =>
  testCluster({ configItems: { cluster_stack: 'aws/default/1-30', ...items } });

function thrown(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('the layers of a stack map onto the cluster/ tree', () => {
  it('places each layer where CLM reads it and joins the two config defaults', () => {
    const stack = resolveClusterStack(pinned({}), [snapshot(stackFiles('v1'))])!;
    expect([...stack.tree.keys()].sort()).toEqual([
      'cluster/cf-manifests/alerts.yaml',
      'cluster/cluster.yaml',
      'cluster/config-defaults.yaml',
      'cluster/manifests/20-web/configmap.yaml',
      'cluster/manifests/deletions.yaml',
      'cluster/node-pools/worker-default/stack.yaml',
      'cluster/node-pools/worker-default/userdata.yaml',
    ]);
    expect(stack.tree.get('cluster/config-defaults.yaml')).toBe('drain_grace_period: 10m\nami_id: ami-1\n');
  });

  it('replaces the holding source’s cluster/ tree and leaves other sources alone', () => {
    const main = snapshot({
      ...stackFiles('v1'),
      'cluster/cluster.yaml': 'old\n',
      'cluster/manifests/x/a.yaml': 'old',
    });
    const extra = snapshot({ 'cluster/manifests/team/a.yaml': 'team' }, 'sha-2', 'extra');
    const stack = resolveClusterStack(pinned({}), [main, extra]);
    const [mapped, other] = withStackTree([main, extra], stack);
    expect(mapped.files.get('cluster/cluster.yaml')).toBe('Resources: {}\n');
    expect(mapped.files.has('cluster/manifests/x/a.yaml')).toBe(false);
    expect(other).toBe(extra);
  });

  it('refuses a file given by two layers, naming both', () => {
    const files = {
      ...stackFiles('v1'),
      [`${DIR}node-image/node-pools/worker-default/stack.yaml`]: 'Resources: {}\n',
    };
    const error = thrown(() => resolveClusterStack(pinned({}), [snapshot(files)]));
    expect(error.message).toContain(`main/${DIR}cluster-class/node-pools/worker-default/stack.yaml`);
    expect(error.message).toContain(`main/${DIR}node-image/node-pools/worker-default/stack.yaml`);
  });

  it('refuses a config item set by two layers', () => {
    const files = { ...stackFiles('v1'), [`${DIR}node-image/config-defaults.yaml`]: 'drain_grace_period: 1m\n' };
    expect(thrown(() => resolveClusterStack(pinned({}), [snapshot(files)])).message).toMatch(
      /config item "drain_grace_period" is set by two layers/,
    );
  });

  it('digests each layer: an addon edit changes only the cluster-addon digest', () => {
    const a = resolveClusterStack(pinned({}), [snapshot(stackFiles('v1'))])!;
    const b = resolveClusterStack(pinned({}), [snapshot(stackFiles('v1', 'hi'))])!;
    expect(b.digests.clusterAddon).not.toBe(a.digests.clusterAddon);
    expect(b.digests.clusterClass).toBe(a.digests.clusterClass);
    expect(b.digests.nodeImage).toBe(a.digests.nodeImage);
  });
});

describe('pinning a cluster to a stack', () => {
  it('a cluster without cluster_stack uses the plain tree', () => {
    expect(resolveClusterStack(testCluster(), [snapshot(stackFiles('v1'))])).toBeUndefined();
  });

  it('a pinned version the channel holds resolves', () => {
    const stack = resolveClusterStack(pinned({ cluster_stack_version: 'v3' }), [snapshot(stackFiles('v3'))]);
    expect(stack?.metadata.clusterStack).toBe('v3');
  });

  it('a pinned version the channel does not hold is an error naming the item', () => {
    const error = thrown(() =>
      resolveClusterStack(pinned({ cluster_stack_version: 'v2' }), [snapshot(stackFiles('v3'))]),
    );
    expect(error.location).toEqual({ clusterId: testCluster().id, field: 'config_items.cluster_stack_version' });
    expect(error.message).toMatch(/at v2, but config source main holds v3/);
  });

  it.each([
    ['cluster_stack', { cluster_stack: 'aws/default' }],
    ['cluster_stack', { cluster_stack: 'aws/default/1.30' }],
    ['cluster_stack_version', { cluster_stack_version: 'newest' }],
  ])('a malformed %s is an error naming it', (item, items) => {
    const error = thrown(() => resolveClusterStack(pinned(items), [snapshot(stackFiles('v1'))]));
    expect(error.location?.field).toBe(`config_items.${item}`);
  });

  it('a stack no source holds, a missing metadata.yaml and a Kubernetes version outside its directory are errors', () => {
    expect(
      thrown(() => resolveClusterStack(pinned({ cluster_stack: 'aws/default/1-29' }), [snapshot(stackFiles('v1'))]))
        .message,
    ).toMatch(/no config source holds cluster stack aws\/default\/1-29/);
    const { [`${DIR}metadata.yaml`]: _m, ...noMetadata } = stackFiles('v1');
    expect(thrown(() => resolveClusterStack(pinned({}), [snapshot(noMetadata)])).location?.file).toBe(
      `main/${DIR}metadata.yaml`,
    );
    const wrongMinor = { ...stackFiles('v1'), [`${DIR}metadata.yaml`]: metadata('v1', 'v1', 'v1', 'v1.31.0') };
    expect(thrown(() => resolveClusterStack(pinned({}), [snapshot(wrongMinor)])).location?.field).toBe(
      'versions.kubernetes',
    );
  });
});

describe('channels: the version string names the stack version', () => {
  /** A git-like source: each channel (ref) points at a commit with its files. */
  const commits: Record<string, Record<string, string>> = {
    'sha-a': stackFiles('v1'),
    'sha-b': stackFiles('v2', 'hi'),
  };
  const refs: Record<string, string> = { stable: 'sha-a', main: 'sha-b' };
  const source = {
    name: 'main',
    resolveVersion: async (channel: string) => refs[channel],
    checkout: async (version: string) => snapshot(commits[version], version),
  };

  it('latest follows what each channel holds', async () => {
    const onStable = await resolveClusterConfigVersion({ ...pinned({}), channel: 'stable' }, [source]);
    const onMain = await resolveClusterConfigVersion(
      { ...pinned({ cluster_stack_version: 'latest' }), channel: 'main' },
      [source],
    );
    expect(onStable.id).toBe('sha-a;stack=aws/default/1-30@v1');
    expect(onMain.id).toBe('sha-b;stack=aws/default/1-30@v2');
    expect(stackOfVersion(`${onMain.id}#hash`)).toEqual({ name: 'aws/default/1-30', version: 'v2' });
  });

  it('a cluster without a stack keeps the plain version', async () => {
    expect((await resolveClusterConfigVersion(testCluster({ channel: 'main' }), [source])).id).toBe('sha-b');
  });

  it('a pin refuses a channel holding another version', async () => {
    await expect(
      resolveClusterConfigVersion({ ...pinned({ cluster_stack_version: 'v1' }), channel: 'main' }, [source]),
    ).rejects.toThrow(/pins cluster stack aws\/default\/1-30 at v1, but config source main holds v2 at sha-b/);
  });
});
