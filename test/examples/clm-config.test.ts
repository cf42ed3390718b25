/**
 * End to end on examples/clm-config (a CLM-shaped config repository in Go templates): `clm migrate` converts
 * every template, then `clm render` renders every cluster, node pool and manifest of examples/clm-clusters.yaml.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import yaml from 'js-yaml';
import { main } from '../../lambdas/cli/main';
import { captureIo } from '../support/cli-io';

const ROOT = resolve(__dirname, '../..');

function templatesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('examples/clm-config: migrate, then render', () => {
  let tmp: string;
  let converted: string;
  let rendered: any;
  let out: string;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'clm-example-'));
    converted = join(tmp, 'config');
    out = join(tmp, 'rendered');
    const migrate = captureIo(ROOT);
    expect(await main(['migrate', '--from', 'examples/clm-config', '--to', converted], migrate)).toBe(0);
    const render = captureIo(ROOT);
    const args = ['--registry', 'examples/clm-clusters.yaml', '--directory', converted];
    const code = await main(['render', ...args, '--values', 'examples/clm-values.yaml', '--output', 'json'], render);
    expect(render.err).toBe('');
    expect(code).toBe(0);
    rendered = JSON.parse(render.out);
    await main(['render', ...args, '--values', 'examples/clm-values.yaml', '--out', out], captureIo(ROOT));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('converts every template of the repository and refuses none', () => {
    const templates = templatesIn(join(ROOT, 'examples/clm-config/cluster'));
    expect(templates.length).toBeGreaterThanOrEqual(15);
    for (const file of templatesIn(join(converted, 'cluster')))
      expect(readFileSync(file, 'utf8')).toMatch(/^\{\{!-- clm:go-template/);
  });

  it('renders every cluster without errors, with every node pool and every manifest', () => {
    const registry = yaml.load(readFileSync(join(ROOT, 'examples/clm-clusters.yaml'), 'utf8')) as any;
    const manifestFiles = templatesIn(join(ROOT, 'examples/clm-config/cluster/manifests')).filter(
      (file) => !file.endsWith('deletions.yaml'),
    );
    expect(rendered.clusters.map((c: any) => c.id)).toEqual(registry.clusters.map((c: any) => c.id));
    for (const [i, cluster] of rendered.clusters.entries()) {
      expect(cluster.errors).toEqual([]);
      const pools = cluster.stacks.filter((s: any) => s.kind === 'node-pool').map((s: any) => s.name);
      const asgPools = registry.clusters[i].node_pools.filter((p: any) => p.profile !== 'worker-karpenter');
      expect(pools).toEqual(asgPools.map((p: any) => `nodepool-${p.name}-${cluster.id.replaceAll(':', '-')}`));
      // Karpenter pools have no stack: their provisioners.yaml renders to a NodePool and an EC2NodeClass
      const karpenter = registry.clusters[i].node_pools.filter((p: any) => p.profile === 'worker-karpenter');
      expect((cluster.karpenterPools ?? []).map((p: any) => p.name)).toEqual(karpenter.map((p: any) => p.name));
      for (const pool of cluster.karpenterPools ?? [])
        expect(pool.provisioners.map((o: any) => `${o.kind}/${o.metadata.name}`)).toEqual([
          `EC2NodeClass/${pool.name}`,
          `NodePool/${pool.name}`,
        ]);
      expect(cluster.stacks.map((s: any) => s.kind)).toEqual([
        'cluster',
        'cf-manifest',
        ...pools.map(() => 'node-pool'),
      ]);
      expect(cluster.manifests.map((m: any) => `${m.component}/${m.file}`).sort()).toEqual(
        manifestFiles.map((f) => f.split('/manifests/')[1]).sort(),
      );
    }
  });

  it('keeps CLM semantics: defaults by environment, define/template, range over pools, InstanceInfo, manifestHash', () => {
    const [dev, live] = rendered.clusters;
    expect(dev.configItems).toMatchObject({ coredns_replicas: '2', node_image_arm64: 'ami-0a1b2c3d4e5f60719' });
    expect(live.configItems).toMatchObject({ coredns_replicas: '3', cluster_dns_name: 'kube-live.live' });
    const deployments = (c: any, component: string) =>
      c.manifests.find((m: any) => m.component === component).objects.map((o: any) => o.metadata.name);
    expect(deployments(dev, 'ingress')).toEqual(['ingress', 'ingress-canary']);
    expect(deployments(live, 'ingress')).toEqual(['ingress']);
    const ingress = live.manifests.find((m: any) => m.component === 'ingress').objects[0];
    expect(ingress.spec.template.spec.nodeSelector).toEqual({ dedicated: 'ingress' });
    const master = dev.stacks.find((s: any) => s.name.startsWith('nodepool-default-master'));
    expect(master.template.Resources.LaunchTemplate.Properties.LaunchTemplateData.ImageId).toBe(
      'ami-0a1b2c3d4e5f60719',
    );
    const worker = live.stacks.find((s: any) => s.name.startsWith('nodepool-default-worker'));
    expect(Object.keys(worker.template.Resources)).toEqual([
      'LaunchTemplate',
      'AutoScalingGroup1a',
      'AutoScalingGroup1b',
      'AutoScalingGroup1c',
    ]);
    const userdata = readFileSync(
      join(out, 'aws_210987654321_eu-west-1_kube-live/node-pools/default-worker/userdata.yaml'),
      'utf8',
    );
    expect(userdata).toContain('EPHEMERAL_STORAGE=213300000000\n');
    expect(userdata).toContain('mounts:\n  - [/dev/nvme1n1, /var/lib/containers]\n');
    const configmap = readFileSync(
      join(out, 'aws_210987654321_eu-west-1_kube-live/manifests/main/coredns/configmap.yaml'),
      'utf8',
    );
    expect(configmap).toContain('file /etc/coredns/local.db live.example.org');
    // the hash follows the rendered ConfigMap, which differs between the clusters (the local zone)
    const hash = (c: any) =>
      c.manifests.find((m: any) => m.file === 'deployment.yaml' && m.component === 'coredns').objects[0].spec.template
        .metadata.annotations['config/hash'];
    expect(hash(live)).toMatch(/^[0-9a-f]{64}$/);
    expect(hash(dev)).toMatch(/^[0-9a-f]{64}$/);
    expect(hash(live)).not.toBe(hash(dev));
  });
});

describe('examples/clm-config: the Karpenter pool (worker-karpenter) after migrate', () => {
  it('renders KarpenterInstanceTypeStrategy, KarpenterRequirements, taints and the raw user data as CLM does', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'clm-karpenter-'));
    try {
      expect(
        await main(['migrate', '--from', 'examples/clm-config', '--to', join(tmp, 'config')], captureIo(ROOT)),
      ).toBe(0);
      const render = captureIo(ROOT);
      const args = ['--registry', 'examples/clm-clusters.yaml', '--directory', join(tmp, 'config')];
      expect(await main(['render', ...args, '--values', 'examples/clm-values.yaml', '--output', 'json'], render)).toBe(
        0,
      );
      const dev = JSON.parse(render.out).clusters[0];
      const [nodeClass, nodePool] = dev.karpenterPools[0].provisioners;
      expect(nodePool.spec.template.spec.taints).toEqual([{ key: 'dedicated', effect: 'NoSchedule', value: 'burst' }]);
      expect(nodePool.spec.template.spec.requirements).toEqual([
        { key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m6i', 'c6i', 'r6i'] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
      ]);
      expect(nodePool.spec.disruption.budgets).toEqual([{ nodes: '10%' }]);
      expect(nodeClass.spec.userData).toMatch(/^#cloud-config\nwrite_files:\n/);
      expect(nodeClass.spec.userData).toContain('NODE_TAINTS=dedicated=burst:NoSchedule\n');
      expect(nodeClass.spec.userData).toContain(
        's3://cluster-lifecycle-manager-123456789012-eu-central-1/kube-dev/worker/',
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
