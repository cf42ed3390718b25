import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { StaticValuesProvider } from '../../lambdas/adapters/values/static-values-provider';
import { HandlebarsTemplateEngine } from '../../lambdas/adapters/templating/handlebars-template-engine';
import { parseCfnTemplate } from '../../lambdas/core/cloudformation/cfn-yaml';
import { isMasterPool } from '../../lambdas/core/model/cluster';
import { parseClustersYaml } from '../../lambdas/core/model/parse-clusters';
import { renderCluster } from '../../lambdas/core/render/render-cluster';
import type { ClusterRender } from '../../lambdas/core/render/render-cluster';

/**
 * The example config repository is used by every later feature, the simulator and the integration suite
 * (which creates its stacks in moto's CloudFormation), so it is held to what those need.
 */

const ROOT = resolve(__dirname, '../..');
const { clusters } = parseClustersYaml(
  readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8'),
  'examples/clusters.yaml',
);

/** Resource types moto's CloudFormation creates (the integration suite deploys these templates there). */
const MOTO_TYPES = new Set([
  'AWS::IAM::Role',
  'AWS::IAM::InstanceProfile',
  'AWS::EC2::SecurityGroup',
  'AWS::EC2::LaunchTemplate',
  'AWS::AutoScaling::AutoScalingGroup',
  'AWS::KMS::Key',
  'AWS::SNS::Topic',
  'AWS::Logs::LogGroup',
  'AWS::S3::Bucket',
]);

function configSnapshot() {
  const dir = join(ROOT, 'examples/config');
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(
        relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'),
        readFileSync(join(entry.parentPath, entry.name), 'utf8'),
      );
  }
  return [{ sourceName: 'main', version: 'examples', files }];
}

async function renderAll(values: StaticValuesProvider): Promise<ClusterRender[]> {
  const engine = new HandlebarsTemplateEngine();
  const snapshots = configSnapshot();
  return Promise.all(
    clusters.map(async (cluster) =>
      renderCluster({
        cluster,
        snapshots,
        values: await values.clusterValues(cluster),
        engine,
        decrypter: { decrypt: async () => 'unused' },
      }),
    ),
  );
}

type Template = {
  Resources: Record<string, { Type: string; Properties?: any }>;
  Outputs?: Record<string, { Value: unknown; Export?: { Name: string } }>;
};

/** Every `Ref` / `Fn::GetAtt` / `Fn::ImportValue` in a template. */
function intrinsics(
  value: unknown,
  found: { refs: string[]; getAtts: string[]; imports: string[] } = { refs: [], getAtts: [], imports: [] },
) {
  if (Array.isArray(value)) value.forEach((v) => intrinsics(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'Ref' && typeof v === 'string') found.refs.push(v);
      else if (key === 'Fn::GetAtt') found.getAtts.push((v as string[])[0]);
      else if (key === 'Fn::ImportValue') found.imports.push(v as string);
      else intrinsics(v, found);
    }
  }
  return found;
}

describe('examples/clusters.yaml', () => {
  it('has test, staging and production clusters in two infrastructure accounts', () => {
    expect(clusters.map((c) => c.environment)).toEqual(['test', 'staging', 'production']);
    expect(new Set(clusters.map((c) => c.infrastructureAccount))).toEqual(
      new Set(['aws:123456789012', 'aws:210987654321']),
    );
    expect(clusters.every((c) => c.lifecycleStatus === 'ready')).toBe(true);
  });

  it('gives each cluster a small master pool and one or two small worker pools', () => {
    for (const cluster of clusters) {
      const masters = cluster.nodePools.filter(isMasterPool);
      const workers = cluster.nodePools.filter((p) => !isMasterPool(p));
      expect(masters).toHaveLength(1);
      expect(masters[0]).toMatchObject({ profile: 'master-default' });
      expect(masters[0].maxSize).toBeLessThanOrEqual(2);
      expect(workers.length).toBeGreaterThanOrEqual(1);
      expect(workers.length).toBeLessThanOrEqual(2);
      for (const worker of workers) {
        expect(worker.minSize).toBeGreaterThanOrEqual(2);
        expect(worker.maxSize).toBeLessThanOrEqual(4);
      }
    }
  });
});

describe('examples/config', () => {
  it.each([
    ['offline default values', new StaticValuesProvider()],
    ['examples/values.yaml', undefined],
  ])('renders every cluster without errors with %s', async (_what, provider) => {
    const values = provider ?? (await StaticValuesProvider.fromFile(join(ROOT, 'examples/values.yaml')));
    const renders = await renderAll(values);
    expect(renders.map((r) => r.errors)).toEqual([[], [], []]);
  });

  it('stays within what moto can create, with consistent references and exports', async () => {
    const renders = await renderAll(await StaticValuesProvider.fromFile(join(ROOT, 'examples/values.yaml')));
    const exportsByRegion = new Map<string, Set<string>>();
    for (const [index, render] of renders.entries()) {
      const region = clusters[index].region;
      const exported = exportsByRegion.get(region) ?? new Set<string>();
      exportsByRegion.set(region, exported);
      const mainExports = new Set<string>();
      for (const stack of render.stacks) {
        const template = parseCfnTemplate(stack.template, stack.name) as Template;
        const resources = Object.keys(template.Resources);
        for (const resource of Object.values(template.Resources)) expect(MOTO_TYPES).toContain(resource.Type);
        const { refs, getAtts, imports } = intrinsics(template);
        for (const ref of refs.filter((r) => !r.startsWith('AWS::'))) expect(resources).toContain(ref);
        for (const target of getAtts) expect(resources).toContain(target);
        for (const output of Object.values(template.Outputs ?? {})) {
          if (!output.Export) continue;
          expect(exported.has(output.Export.Name)).toBe(false);
          exported.add(output.Export.Name);
          if (stack.kind === 'cluster') mainExports.add(output.Export.Name);
        }
        // node-pool stacks import only what this cluster's main stack exports
        if (stack.kind === 'node-pool') for (const name of imports) expect(mainExports).toContain(name);
      }
    }
  });

  it('points every ASG at an explicit launch-template version (CLM requires it)', async () => {
    const renders = await renderAll(new StaticValuesProvider());
    let groups = 0;
    for (const render of renders) {
      for (const stack of render.stacks.filter((s) => s.kind === 'node-pool')) {
        const template = parseCfnTemplate(stack.template, stack.name) as Template;
        for (const resource of Object.values(template.Resources).filter(
          (r) => r.Type === 'AWS::AutoScaling::AutoScalingGroup',
        )) {
          expect(resource.Properties.LaunchTemplate).toEqual({
            LaunchTemplateId: { Ref: 'LaunchTemplate' },
            Version: { 'Fn::GetAtt': ['LaunchTemplate', 'LatestVersionNumber'] },
          });
          expect(resource.Properties.Tags).toEqual(
            expect.arrayContaining([
              { Key: `kubernetes.io/cluster/${render.id}`, Value: 'owned', PropagateAtLaunch: true },
              { Key: 'NodePool', Value: stack.pool, PropagateAtLaunch: true },
              { Key: 'node.kubernetes.io/node-pool', Value: stack.pool, PropagateAtLaunch: true },
            ]),
          );
          groups++;
        }
      }
    }
    // test: 2 pools, staging: 2 pools + 2 zones of the split pool, prod: 3 pools
    expect(groups).toBe(9);
  });

  it('sets drain and sizing defaults by environment, registry items winning', async () => {
    const [test, staging, prod] = await renderAll(new StaticValuesProvider());
    expect(test.configItems).toMatchObject({ drain_grace_period: '10m', web_replicas: '2' });
    expect(staging.configItems).toMatchObject({ drain_grace_period: '30m', web_replicas: '2' });
    expect(prod.configItems).toMatchObject({
      drain_grace_period: '6h',
      drain_min_pod_lifetime: '72h',
      web_replicas: '3',
    });
    expect(prod.nodePools.find((p) => p.name === 'spot-worker')!.configItems.root_volume_size).toBe('80');
    expect(prod.nodePools.find((p) => p.name === 'default-worker')!.configItems.root_volume_size).toBe('100');
  });

  it('covers the workload kinds later features need', async () => {
    const [test] = await renderAll(new StaticValuesProvider());
    const objects = test.manifests.flatMap((m) => m.objects);
    const kinds = objects.map((o) => `${o.apiVersion} ${o.kind}`);
    for (const kind of [
      'v1 Namespace',
      'apps/v1 Deployment',
      'policy/v1 PodDisruptionBudget',
      'apps/v1 StatefulSet',
      'apps/v1 DaemonSet',
      'apiextensions.k8s.io/v1 CustomResourceDefinition',
      'platform.example.org/v1 BackupPolicy',
      'v1 ConfigMap',
      'v1 Service',
    ]) {
      expect(kinds).toContain(kind);
    }
    const statefulSet = objects.find((o) => o.kind === 'StatefulSet') as any;
    expect(statefulSet.spec.volumeClaimTemplates).toHaveLength(1);
    expect(test.manifests[0].component).toBe('00-crds');
  });

  it('has deletions by name, selector and labels, one only outside production', async () => {
    const [test, , prod] = await renderAll(new StaticValuesProvider());
    expect(test.deletions.preApply).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'web-frontend' }),
        expect.objectContaining({ labels: { experiment: 'legacy-canary' }, hasOwner: false }),
      ]),
    );
    expect(test.deletions.postApply).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ selector: expect.any(String), propagationPolicy: 'Foreground' }),
        { kind: 'Namespace', name: 'load-test' },
      ]),
    );
    expect(prod.deletions.postApply.map((d) => d.kind)).toEqual(['Job']);
  });
});
