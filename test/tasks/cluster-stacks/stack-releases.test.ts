import { stackArchive, unpackStackArchive } from '../../../lambdas/core/cluster-stacks/stack-archive';
import { layerPlan } from '../../../lambdas/core/cluster-stacks/layer-changes';
import { clusterStackPin, parseStackRef } from '../../../lambdas/core/cluster-stacks/stack-ref';
import { stackState } from '../../../lambdas/core/cluster-stacks/stack-state';
import { resolveClusterConfigVersion } from '../../../lambdas/core/version/resolve-config-version';
import type { ConfigSnapshot } from '../../../lambdas/ports/config-source';
import { ConfigError } from '../../../lambdas/shared/errors';
import {
  loadClusterStack,
  releaseKeys,
  releaseStack,
  releasesIn,
  RELEASES_PREFIX,
} from '../../../lambdas/tasks/cluster-stacks/stack-releases';
import { MemoryArtifactStore } from '../../support/fakes/memory-artifact-store';
import { testCluster } from '../../support/test-cluster';

const REF = parseStackRef('aws/default/1-30');

/** One stack directory's files (relative to it): version, component versions and a greeting in an addon. */
function stackDir(version: string, { addon = 'v1', image = 'v1', greeting = 'hello', ami = 'ami-1' } = {}) {
  return new Map(
    Object.entries({
      'metadata.yaml': `apiVersion: metadata.clusterstack.x-k8s.io/v1alpha1
versions:
  clusterStack: ${version}
  kubernetes: v1.30.5
  components:
    clusterAddon: ${addon}
    nodeImage: ${image}
`,
      'cluster-class/cluster.yaml': 'Resources: {}\n',
      'cluster-class/node-pools/worker-default/stack.yaml': 'Resources: {}\n',
      'node-image/config-defaults.yaml': `ami_id: ${ami}\n`,
      'node-image/node-pools/worker-default/userdata.yaml': 'userdata\n',
      'cluster-addon/20-web/configmap.yaml': `greeting: ${greeting}\n`,
    }),
  );
}

/** The config source's tree now: a `cluster/…` tree and the stack at some other version. */
function source(files: Map<string, string>, version = 'sha-now'): ConfigSnapshot {
  const all = new Map([['cluster/cluster.yaml', 'Resources: {Old: {}}\n']]);
  for (const [path, content] of files) all.set(`providers/aws/default/1-30/${path}`, content);
  return { sourceName: 'main', version, files: all };
}

async function released(store: MemoryArtifactStore, files: Map<string, string>, version: string) {
  const archive = stackArchive(files);
  const result = await releaseStack(releasesIn(store), REF, version, archive);
  expect(result.action).toBe('released');
  return archive.digest;
}

const pinning = (version: string) =>
  testCluster({ configItems: { cluster_stack: 'aws/default/1-30', cluster_stack_version: version } });

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('clm stack release into an artefact store', () => {
  it('writes the tarball and its digest under stack-releases/, once; the same content again writes nothing', async () => {
    const store = new MemoryArtifactStore();
    const archive = stackArchive(stackDir('v2'));
    const first = await releaseStack(releasesIn(store), REF, 'v2', archive);
    expect(first).toEqual({
      action: 'released',
      digest: archive.digest,
      location: `${RELEASES_PREFIX}aws/default/1-30/v2.tar.gz`,
    });
    expect(store.bytes.get(`${RELEASES_PREFIX}aws/default/1-30/v2.tar.gz`)).toEqual(Uint8Array.from(archive.bytes));
    expect(store.objects.get(`${RELEASES_PREFIX}aws/default/1-30/v2.sha256`)).toBe(`${archive.digest}\n`);
    const putOnce = jest.spyOn(store, 'putOnce');
    const again = await releaseStack(releasesIn(store), REF, 'v2', stackArchive(stackDir('v2')));
    expect(again.action).toBe('unchanged');
    expect(putOnce).not.toHaveBeenCalled();
  });

  it('refuses other content under a released version, changing nothing', async () => {
    const store = new MemoryArtifactStore();
    const digest = await released(store, stackDir('v2'), 'v2');
    const before = new Map(store.bytes);
    const other = stackArchive(stackDir('v2', { greeting: 'hey' }));
    const refused = await releaseStack(releasesIn(store), REF, 'v2', other);
    expect(refused).toEqual({
      action: 'refused',
      digest: other.digest,
      released: digest,
      location: expect.any(String),
    });
    expect(store.bytes).toEqual(before);
    expect(store.objects.get(`${RELEASES_PREFIX}aws/default/1-30/v2.sha256`)).toBe(`${digest}\n`);
  });

  it('finishes a release that stopped after the tarball, and refuses one whose tarball holds other content', async () => {
    const store = new MemoryArtifactStore();
    const keys = releaseKeys(REF, 'v3');
    const archive = stackArchive(stackDir('v3'));
    await store.putOnce(keys.tarball, archive.bytes);
    expect((await releaseStack(store, REF, 'v3', archive)).action).toBe('released');
    expect(store.objects.get(keys.digest)).toBe(`${archive.digest}\n`);

    const racing = new MemoryArtifactStore();
    await racing.putOnce(keys.tarball, stackArchive(stackDir('v3', { ami: 'ami-2' })).bytes);
    const refused = await releaseStack(racing, REF, 'v3', archive);
    expect(refused.action).toBe('refused');
    expect(racing.objects.has(keys.digest)).toBe(false);
  });

  it('packs files a reader gets back exactly', () => {
    const files = stackDir('v1', { greeting: 'grüße' });
    files.set(`cluster-addon/${'x'.repeat(110)}/long.yaml`, 'a: 1\n');
    expect(unpackStackArchive(stackArchive(files).bytes)).toEqual(files);
  });
});

describe('a cluster pinning a released stack', () => {
  it('parses vN@sha256:<hex> and names the stack version in the cluster version without reading any tree', async () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    expect(clusterStackPin(pinning(`v4@${digest}`))).toMatchObject({ version: 'v4', digest });
    expect(() => clusterStackPin(pinning(`latest@${digest}`))).toThrow(/v4@sha256:<64 hex digits>/);
    expect(() => clusterStackPin(pinning('v4@sha256:abc'))).toThrow(/config_items\.cluster_stack_version/);
    const resolved = await resolveClusterConfigVersion(pinning(`v4@${digest}`), [
      { name: 'main', resolveVersion: async () => 'sha-now', checkout: async () => source(stackDir('v1')) },
    ]);
    expect(resolved.id).toBe('sha-now;stack=aws/default/1-30@v4');
  });

  it('renders exactly the released content, whatever the config source holds now', async () => {
    const store = new MemoryArtifactStore();
    const digest = await released(store, stackDir('v2', { addon: 'v2', greeting: 'released' }), 'v2');
    // The source has moved on: its stack directory is v5 with other content, its cluster/ tree is its own.
    const now = source(stackDir('v5', { addon: 'v5', greeting: 'newer' }));
    const stack = (await loadClusterStack(pinning(`v2@${digest}`), [now], releasesIn(store)))!;
    expect(stack.metadata.clusterStack).toBe('v2');
    expect(stack.source).toBe('main');
    expect(stack.release).toEqual({ digest, location: `${RELEASES_PREFIX}aws/default/1-30/v2.tar.gz` });
    expect(stack.tree.get('cluster/manifests/20-web/configmap.yaml')).toBe('greeting: released\n');
  });

  it('maps the layers between two released versions as between tree versions', async () => {
    const store = new MemoryArtifactStore();
    const v2 = await released(store, stackDir('v2', { addon: 'v2' }), 'v2');
    const v3 = await released(store, stackDir('v3', { addon: 'v2', image: 'v2', ami: 'ami-2' }), 'v3');
    const state = async (pin: string, commit: string) => {
      const cluster = pinning(pin);
      const stack = (await loadClusterStack(cluster, [source(stackDir('v1'), commit)], releasesIn(store)))!;
      return stackState(cluster, stack, { main: commit });
    };
    // The config source's commit differs too: the released content alone decides.
    const plan = layerPlan(await state(`v2@${v2}`, 'sha-a'), await state(`v3@${v3}`, 'sha-b'));
    expect(plan).toMatchObject({ from: 'aws/default/1-30@v2', to: 'aws/default/1-30@v3', changed: ['nodeImage'] });
    expect(plan.steps).toEqual({
      mainStack: false,
      cfManifestStacks: false,
      poolStacks: true,
      rollPools: true,
      manifests: false,
    });
  });

  it('refuses a missing release, a digest mismatch and a release of another version, naming cluster, pin and location', async () => {
    const store = new MemoryArtifactStore();
    const digest = await released(store, stackDir('v2'), 'v2');
    const now = [source(stackDir('v1'))];
    const missing = await rejection(loadClusterStack(pinning(`v3@${digest}`), now, releasesIn(store)));
    expect(missing.message).toBe(
      `cluster aws:123456789012:eu-central-1:kube-1, field config_items.cluster_stack_version: pins cluster stack aws/default/1-30 v3@${digest}: no released tarball at stack-releases/aws/default/1-30/v3.tar.gz (release it with clm stack release --stack aws/default/1-30)`,
    );
    const other = `sha256:${'0'.repeat(64)}`;
    const mismatch = await rejection(loadClusterStack(pinning(`v2@${other}`), now, releasesIn(store)));
    expect(mismatch.message).toContain(
      `pins cluster stack aws/default/1-30 v2@${other}: the tarball at stack-releases/aws/default/1-30/v2.tar.gz is ${digest}, not the pinned digest`,
    );
    // a tarball someone put under v4 that holds v2
    const v2Bytes = store.bytes.get(`${RELEASES_PREFIX}aws/default/1-30/v2.tar.gz`)!;
    await store.putOnce(`${RELEASES_PREFIX}aws/default/1-30/v4.tar.gz`, v2Bytes);
    const wrong = await rejection(loadClusterStack(pinning(`v4@${digest}`), now, releasesIn(store)));
    expect(wrong.message).toContain('but the release at stack-releases/aws/default/1-30/v4.tar.gz is v2');
    expect(wrong.location).toEqual({
      clusterId: 'aws:123456789012:eu-central-1:kube-1',
      field: 'config_items.cluster_stack_version',
    });
  });
});
