import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { FileRegistry } from '../../../lambdas/adapters/registry/file-registry';
import { NotFoundError, RegistryError, ValidationError } from '../../../lambdas/shared/errors';
import { ACCOUNT, wireCluster } from './fixtures';

describe('FileRegistry', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clm-file-registry-'));
    file = join(dir, 'clusters.yaml');
    writeFileSync(file, dump({ clusters: [wireCluster('kube-1'), wireCluster('kube-2')] }));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('does not persist status', () => {
    expect(new FileRegistry({ path: file }).persistsStatus).toBe(false);
  });

  it('re-reads the file on every listClusters', async () => {
    // Arrange
    const registry = new FileRegistry({ path: file, displayName: 'clusters.yaml' });
    expect(await registry.listClusters()).toHaveLength(2);

    // Act
    writeFileSync(file, dump({ clusters: [wireCluster('kube-1', { channel: 'beta' })] }));
    const clusters = await registry.listClusters();

    // Assert
    expect(clusters.map((c) => [c.localId, c.channel])).toEqual([['kube-1', 'beta']]);
  });

  it('keeps status and config item updates in memory over what the file says', async () => {
    const registry = new FileRegistry({ path: file });
    await registry.listClusters();
    const id = `${ACCOUNT}:eu-central-1:kube-1`;
    const status = { currentVersion: 'a#b', lastVersion: '', nextVersion: '', problems: [] };

    await registry.updateStatus(id, { lifecycleStatus: 'decommission-requested', status });
    await registry.updateConfigItems(id, { eks_endpoint: 'https://e' });
    const [cluster] = await registry.listClusters();

    expect(cluster.status).toEqual(status);
    expect(cluster.lifecycleStatus).toBe('decommission-requested');
    expect(cluster.configItems).toEqual({ product_key: 'abc', eks_endpoint: 'https://e' });
  });

  it('refuses updates for clusters not in the file', async () => {
    const registry = new FileRegistry({ path: file });
    await registry.listClusters();
    await expect(registry.updateConfigItems('aws:123456789012:eu-central-1:nope', {})).rejects.toThrow(NotFoundError);
  });

  it('names the file when it is missing', async () => {
    const registry = new FileRegistry({ path: join(dir, 'missing.yaml'), displayName: 'missing.yaml' });
    await expect(registry.listClusters()).rejects.toThrow(RegistryError);
    await expect(registry.listClusters()).rejects.toThrow(
      /^cannot read the cluster registry file missing\.yaml \(.*missing\.yaml\): no such file$/,
    );
  });

  it('fails with a ValidationError naming the displayed file name and line', async () => {
    writeFileSync(file, 'clusters:\n  - id: x\n');
    const error = await new FileRegistry({ path: file, displayName: 'conf/clusters.yaml' })
      .listClusters()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatch(/^conf\/clusters\.yaml:2: cluster x: id: must match/);
  });

  it('names the file and line of a 5 MB garbage line nested too deep to parse', async () => {
    writeFileSync(file, `${dump({ clusters: [wireCluster('kube-1')] })}    ${'['.repeat(5_000_000)}\n`);
    const line = dump({ clusters: [wireCluster('kube-1')] }).split('\n').length;

    const error = await new FileRegistry({ path: file, displayName: 'conf/clusters.yaml' })
      .listClusters()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatch(
      new RegExp(`^conf/clusters\\.yaml:${line}:\\d+: lists or mappings nested more than 1000 deep`),
    );
  });

  it("logs each warning once and exposes the last read's warnings", async () => {
    const pools = [
      {
        name: 'default',
        profile: 'worker-default',
        instance_type: 'm5.large',
        discount_strategy: 'none',
        min_size: 1,
        max_size: 3,
      },
    ];
    writeFileSync(file, dump({ clusters: [wireCluster('kube-1', { node_pools: pools })] }));
    const warnings: string[] = [];
    const registry = new FileRegistry({
      path: file,
      displayName: 'c.yaml',
      logger: { warn: (m) => warnings.push(m), debug: () => undefined },
    });

    await registry.listClusters();
    await registry.listClusters();

    expect(registry.warnings).toHaveLength(1);
    expect(warnings).toEqual(registry.warnings);
    expect(warnings[0]).toMatch(
      /^c\.yaml:\d+: cluster .*: node_pools\[0\]\.instance_type: instance_type is deprecated/,
    );
  });
});
