// A zalando-eks cluster (examples/eks-clusters.yaml on the cluster stack eks/default/1-30) created, updated, rolled and
// decommissioned in the simulated world: the creation hook writes the three eks_* items once (a second run writes
// none), the API server is reached only at the EKS endpoint with the CA EKS reported, the worker pool rolls without a
// PDB violation, and decommission deletes the VPC-CNI interfaces the terminated nodes leaked.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withControlPlane } from '../../lambdas/core/eks/eks-control-plane';
import { parseClustersYaml } from '../../lambdas/core/model/parse-clusters';
import { ROOT, clm, clusterLines, loadProgress, loadWorld, tempDir } from './support/clm-session';

const CLUSTER = 'aws:123456789012:eu-central-1:kube-eks';
const CONFIG = 'examples/cluster-stacks/v1';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

async function run(verb: 'provision' | 'decommission', state: string, registry: string) {
  const text = await clm([verb, '--simulate', '--registry', registry, '--directory', CONFIG, '--state', state]);
  const summary = text.out
    .split('\n')
    .find((l) => l.startsWith(`succeeded ${CLUSTER}`) || l.startsWith(`failed ${CLUSTER}`));
  return {
    code: text.code,
    text: clusterLines(text.out, CLUSTER).join('\n'),
    summary: summary ?? text.out + text.err,
  };
}

describe('an EKS cluster as CLM runs it', () => {
  it('is created, read back, rolled and decommissioned through its EKS control plane', async () => {
    const state = tempDir('eks');
    const dir = tempDir('eks-registry');
    temps.push(state, dir);
    const registry = join(dir, 'clusters.yaml');
    const original = readFileSync(join(ROOT, 'examples/eks-clusters.yaml'), 'utf8');
    writeFileSync(registry, original);

    // Create: the main stack makes the EKS cluster, the hook writes the three items, everything after talks to EKS.
    const created = await run('provision', state, registry);
    expect(created.code).toBe(0);
    expect(created.text).toMatch(
      /ReadControlPlane: EKS cluster teapot-eks \(ACTIVE\) at https:\/\/[0-9A-F]{32}\.gr7\.eu-central-1\.eks\.amazonaws\.com; service_cidr 172\.20\.0\.0\/16; wrote eks_endpoint, eks_certificate_authority_data, eks_oidc_issuer_url to file:\/\//,
    );
    expect(created.text).toContain('ApplyManifests: Applied 12 object(s): 12 created');
    const written = loadProgress(state).statuses[CLUSTER]!.configItems!;
    expect(Object.keys(written).sort()).toEqual([
      'eks_certificate_authority_data',
      'eks_endpoint',
      'eks_oidc_issuer_url',
    ]);

    // The API server answers at the endpoint with the CA from EKS, and at nothing else.
    const world = loadWorld(state);
    const [registered] = parseClustersYaml(original, 'eks-clusters.yaml').clusters;
    const plane = (await world.forCluster(registered!).eks.describe('teapot-eks'))!;
    expect(written).toEqual({
      eks_endpoint: plane.endpoint,
      eks_certificate_authority_data: plane.certificateAuthorityData,
      eks_oidc_issuer_url: plane.oidcIssuerUrl,
    });
    expect(await world.forCluster(registered!).kube.ready()).toBe(false);
    const viaEks = world.forCluster(withControlPlane(registered!, plane)).kube;
    expect((await viaEks.listNodes()).map((n) => n.ready)).toEqual([true, true]);
    expect((await viaEks.list('Deployment', { namespace: 'kube-system' })).map((d) => d.metadata.name)).toEqual([
      'coredns',
    ]);

    // The second pass (now ready) writes nothing: the registry's items are EKS's.
    const again = await run('provision', state, registry);
    expect(again.code).toBe(0);
    expect(again.text).toContain("the registry's eks_* config items are up to date");
    expect(again.text).not.toContain('wrote eks_');

    // A new instance type rolls the worker pool, through the EKS API server, without a PDB violation.
    writeFileSync(registry, original.replace('instance_types: [m6i.large]', 'instance_types: [m6i.xlarge]'));
    const rolled = await run('provision', state, registry);
    expect(rolled.code).toBe(0);
    expect(rolled.summary).toMatch(/nodes replaced 2, PDB violations 0/);
    expect(rolled.text).toContain('default-worker: 2/2 nodes replaced');
    const leaked = loadWorld(state)
      .cloudResources(CLUSTER)
      .filter((r) => r.kind === 'network-interface' && r.state === 'available');
    // The replaced nodes' interfaces, once their instances are gone (the last one may still be shutting down).
    expect(leaked.length).toBeGreaterThanOrEqual(1);

    // Decommission: the leaked interfaces go before the main stack, and nothing of the cluster is left.
    const gone = await run('decommission', state, registry);
    expect(gone.code).toBe(0);
    expect(gone.text).toContain('ReadDecommissionControlPlane: EKS cluster teapot-eks (ACTIVE)');
    expect(gone.text).toMatch(/CleanUpLeftovers: Deleted network-interface eni-[0-9a-f]{17}, network-interface eni-/);
    const deletedEnis = /CleanUpLeftovers: Deleted ([^;\n]*)/.exec(gone.text)![1]!.split(', ');
    expect(deletedEnis.length).toBeGreaterThanOrEqual(leaked.length + 2);
    const after = loadWorld(state);
    expect(after.describe(CLUSTER).stacks).toEqual([]);
    expect(after.cloudResources(CLUSTER)).toEqual([]);
    expect(await after.forCluster(registered!).eks.describe('teapot-eks')).toBeUndefined();
  }, 120_000);

  it('decommissions a cluster EKS does not have as a success that deletes nothing (CLM)', async () => {
    const state = tempDir('eks-none');
    temps.push(state);

    const gone = await run('decommission', state, 'examples/eks-clusters.yaml');

    expect(gone.code).toBe(0);
    expect(gone.text).toContain(
      'ReadDecommissionControlPlane: EKS cluster teapot-eks does not exist in aws:123456789012 eu-central-1: nothing to decommission',
    );
    expect(gone.text).not.toContain('DeleteMainStack');
    expect(gone.text).toContain('FinalizeDecommission');
  }, 60_000);
});
