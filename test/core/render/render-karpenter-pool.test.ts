import { renderKarpenterPool } from '../../../lambdas/core/render/render-karpenter-pool';
import { renderClusterResources } from '../../../lambdas/core/render/render-cluster-resources';
import { sha512Hex } from '../../../lambdas/core/render/files-bundle';
import { karpenterInstanceTypeStrategy, karpenterRequirements } from '../../../lambdas/core/karpenter/karpenter-pool';
import { ConfigError } from '../../../lambdas/shared/errors';
import { renderJsonDocument, renderSummary } from '../../../lambdas/core/render/render-report';
import { renderTree } from '../../../lambdas/core/render/render-tree';
import { VALUES, cluster, engine, mainSourceFiles, pool, snapshot } from './fixtures';

const PROVISIONERS = [
  '{{#if (eq (index NodePool.ConfigItems "karpenter_pools_enabled") "true")}}',
  'apiVersion: karpenter.k8s.aws/v1',
  'kind: EC2NodeClass',
  'metadata: {name: "{{NodePool.Name}}"}',
  'spec:',
  '  userData: |',
  '{{indent 4 Values.UserData}}',
  '  tags: {files: "{{Values.S3GeneratedFilesPath}}"}',
  '---',
  'apiVersion: karpenter.sh/v1',
  'kind: NodePool',
  'metadata: {name: "{{NodePool.Name}}"}',
  'spec:',
  '  template:',
  '    spec:',
  '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: "{{NodePool.Name}}"}',
  '      requirements:',
  '        - {key: strategy, operator: In, values: ["{{NodePool.KarpenterInstanceTypeStrategy}}"]}',
  '{{#each NodePool.KarpenterRequirements}}',
  '        - key: "{{Key}}"',
  '          operator: "{{Operator}}"',
  '          values: [{{#each Values}}"{{this}}"{{#unless @last}}, {{/unless}}{{/each}}]',
  '{{/each}}',
  '{{/if}}',
  '',
].join('\n');

function karpenterFiles(provisioners = PROVISIONERS): Record<string, string> {
  return mainSourceFiles({
    'cluster/node-pools/worker-karpenter/files.yaml':
      'files:\n  - path: /etc/pool\n    data: {{base64 NodePool.Name}}\n    permissions: 0644\n',
    'cluster/node-pools/worker-karpenter/userdata.yaml': '#cloud-config\npool: {{NodePool.Name}}\n',
    'cluster/node-pools/worker-karpenter/provisioners.yaml': provisioners,
  });
}

const karpenterPool = (items: Record<string, string> = {}, instanceTypes = ['default-for-karpenter']) =>
  pool({ name: 'burst', profile: 'worker-karpenter', instanceTypes, configItems: items });

describe('Karpenter pools: KarpenterInstanceTypeStrategy and KarpenterRequirements (CLM §2.1)', () => {
  it.each([
    [['not-specified'], 'not-specified'],
    [['default-for-karpenter'], 'default-for-karpenter'],
    [['m5.large'], 'custom'],
    [['default-for-karpenter', 'm5.large'], 'custom'],
    [[], 'custom'],
  ])('instance types %j → %s', (instanceTypes, strategy) => {
    expect(karpenterInstanceTypeStrategy({ instanceTypes })).toBe(strategy);
  });

  it('parses the requirements item as NodeSelectorRequirements with Go field names; absent or blank is none', () => {
    const items = {
      requirements:
        '- key: karpenter.k8s.aws/instance-family\n  operator: In\n  values: [m6i, c6i]\n- key: gpu\n  operator: DoesNotExist\n',
    };
    expect(karpenterRequirements(karpenterPool(items))).toEqual([
      { Key: 'karpenter.k8s.aws/instance-family', Operator: 'In', Values: ['m6i', 'c6i'] },
      { Key: 'gpu', Operator: 'DoesNotExist', Values: [] },
    ]);
    expect(karpenterRequirements(karpenterPool())).toEqual([]);
    expect(karpenterRequirements(karpenterPool({ requirements: '  ' }))).toEqual([]);
  });

  it.each([
    ['- key: a\n  operator: In\n  values: [x\n', 'is not valid YAML'],
    ['key: a', 'must be a YAML list of NodeSelectorRequirements, found a mapping'],
    ['- key: a\n  operator: Maybe', '[0] (key a): operator must be one of In, NotIn, Exists, DoesNotExist, Gt, Lt'],
    ['- operator: In', '[0] needs a key'],
  ])('refuses %j with a ConfigError naming cluster, pool and field', (requirements, why) => {
    const bad = karpenterPool({ requirements });
    let error: unknown;
    try {
      karpenterRequirements(bad, 'aws:1:eu-central-1:kube-1');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('node pool "burst" of cluster aws:1:eu-central-1:kube-1');
    expect((error as Error).message).toContain(why);
    expect((error as ConfigError).location).toMatchObject({
      clusterId: 'aws:1:eu-central-1:kube-1',
      field: 'node_pools.burst.config_items.requirements',
    });
  });
});

describe('renderKarpenterPool', () => {
  it('renders files, raw user data and provisioners.yaml into objects, each seeing what the step before produced', async () => {
    const burst = karpenterPool({
      karpenter_pools_enabled: 'true',
      requirements: '- key: karpenter.sh/capacity-type\n  operator: In\n  values: [spot]\n',
    });
    const c = cluster({ nodePools: [burst] });
    const rendered = await renderKarpenterPool({
      cluster: c,
      pool: burst,
      snapshots: [snapshot('main', karpenterFiles())],
      values: VALUES,
      engine: engine(),
    });
    const filesText = 'files:\n  - path: /etc/pool\n    data: YnVyc3Q=\n    permissions: 0644\n';
    expect(rendered.files).toMatchObject({
      sha512: sha512Hex(filesText),
      s3Path: `s3://cluster-lifecycle-manager-123456789012-eu-central-1/kube-1/worker/${sha512Hex(filesText)}.userdata`,
      kmsKeyOutput: 'WorkerFilesEncryptionKey',
      kmsKeyId: 'key-worker',
    });
    expect(rendered.userData).toBe('#cloud-config\npool: burst\n');
    expect(rendered.provisioners.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.name}`)).toEqual([
      'karpenter.k8s.aws/v1 EC2NodeClass burst',
      'karpenter.sh/v1 NodePool burst',
    ]);
    const [nodeClass, nodePool] = rendered.provisioners as any[];
    // Values.UserData is the raw text (not gzipped, not base64), as CLM gives Karpenter pools
    expect(nodeClass.spec.userData).toBe('#cloud-config\npool: burst\n');
    expect(nodeClass.spec.tags.files).toBe(rendered.files.s3Path);
    expect(nodePool.spec.template.spec.requirements).toEqual([
      { key: 'strategy', operator: 'In', values: ['default-for-karpenter'] },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
    ]);
  });

  it('an empty provisioners.yaml render means nothing to apply', async () => {
    const burst = karpenterPool();
    const rendered = await renderKarpenterPool({
      cluster: cluster({ nodePools: [burst] }),
      pool: burst,
      snapshots: [snapshot('main', karpenterFiles())],
      values: VALUES,
      engine: engine(),
    });
    expect(rendered.provisioners).toEqual([]);
  });

  it('fails a broken requirements item even when no template reads it', async () => {
    const burst = karpenterPool({ requirements: '[unclosed' });
    await expect(
      renderKarpenterPool({
        cluster: cluster({ nodePools: [burst] }),
        pool: burst,
        snapshots: [snapshot('main', karpenterFiles('{{NodePool.Name}}: x\n'))],
        values: VALUES,
        engine: engine(),
      }),
    ).rejects.toThrow(
      'node pool "burst" of cluster aws:123456789012:eu-central-1:kube-1: config item requirements is not valid YAML',
    );
  });

  it('a profile without provisioners.yaml is an error naming the pool and the file', async () => {
    const burst = karpenterPool();
    const files = karpenterFiles();
    delete files['cluster/node-pools/worker-karpenter/provisioners.yaml'];
    await expect(
      renderKarpenterPool({
        cluster: cluster({ nodePools: [burst] }),
        pool: burst,
        snapshots: [snapshot('main', files)],
        values: VALUES,
        engine: engine(),
      }),
    ).rejects.toThrow('node pool "burst" uses profile "worker-karpenter", which has no provisioners.yaml');
  });

  it('renderClusterResources renders Karpenter pools beside the ASG pools, with no stack for them', async () => {
    const burst = karpenterPool({ karpenter_pools_enabled: 'true' });
    const c = cluster({ nodePools: [pool({ name: 'default-worker' }), burst] });
    const resources = await renderClusterResources({
      cluster: c,
      snapshots: [snapshot('main', karpenterFiles())],
      values: VALUES,
      engine: engine(),
    });
    expect(resources.errors).toEqual([]);
    expect(resources.nodePools.map((p) => p.name)).toEqual(['default-worker']);
    expect(resources.karpenterPools.map((p) => [p.name, p.provisioners.length])).toEqual([['burst', 2]]);
  });
});

describe('clm render output of Karpenter pools', () => {
  it('lists them in the summary, the JSON document and the --out tree (provisioners.yaml, raw user data)', async () => {
    const burst = karpenterPool({ karpenter_pools_enabled: 'true' });
    const rendered = await renderKarpenterPool({
      cluster: cluster({ nodePools: [burst] }),
      pool: burst,
      snapshots: [snapshot('main', karpenterFiles())],
      values: VALUES,
      engine: engine(),
    });
    const render = {
      id: 'aws:123456789012:eu-central-1:kube-1',
      version: 'v#h',
      configItems: {},
      nodePools: [{ name: 'burst', configItems: {} }],
      stacks: [],
      manifests: [],
      deletions: { preApply: [], postApply: [] },
      cfDeletions: { preApply: [], postApply: [] },
      poolDetails: [rendered],
      karpenterPools: [rendered],
      errors: [],
    };
    expect(renderSummary(render)).toContain('  karpenter  1 pool(s): burst (EC2NodeClass burst, NodePool burst)\n');
    expect(renderJsonDocument([render]).clusters[0]!.karpenterPools).toEqual([
      { name: 'burst', provisioners: rendered.provisioners },
    ]);
    const tree = renderTree(render);
    const dir = 'aws_123456789012_eu-central-1_kube-1/node-pools/burst';
    expect(tree.get(`${dir}/userdata.yaml`)).toBe('#cloud-config\npool: burst\n');
    expect(tree.get(`${dir}/provisioners.yaml`)).toMatch(/^apiVersion: karpenter\.k8s\.aws\/v1\nkind: EC2NodeClass\n/);
    expect(tree.get(`${dir}/provisioners.yaml`)).toContain('---\napiVersion: karpenter.sh/v1\nkind: NodePool\n');
  });
});
