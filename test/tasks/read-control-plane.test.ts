import { readControlPlane } from '../../lambdas/tasks/read-control-plane';
import { openStep } from '../../lambdas/tasks/step/open-step';
import { loadCluster, writeStatus } from '../../lambdas/tasks/step/cluster-status';
import type { EksControlPlane } from '../../lambdas/core/eks/eks-control-plane';
import type { Cluster } from '../../lambdas/core/model/cluster';
import type { RunRecord } from '../../lambdas/core/model/run';
import { NotFoundError } from '../../lambdas/shared/errors';
import { fakeEnv, seedRun, testCluster, type FakeEnv } from '../support/fakes';

const PLANE: EksControlPlane = {
  name: 'teapot-euc1',
  endpoint: 'https://ABC.gr7.eu-central-1.eks.amazonaws.com',
  certificateAuthorityData: 'Q0E=',
  oidcIssuerUrl: 'https://oidc.eks.eu-central-1.amazonaws.com/id/ABC',
  serviceCidr: '172.20.0.0/16',
  status: 'ACTIVE',
};

const eks = (items: Record<string, string> = {}): Cluster =>
  testCluster({
    provider: 'zalando-eks',
    alias: 'teapot-euc1',
    apiServerUrl: 'https://teapot.example.org',
    configItems: items,
  });
const toRef = (run: RunRecord) => ({ clusterId: run.clusterId, targetVersion: run.targetVersion, holder: run.holder });

async function arrange(
  cluster: Cluster,
  options: { persistsStatus?: boolean; action?: RunRecord['action'] } = {},
): Promise<{ env: FakeEnv; ref: ReturnType<typeof toRef> }> {
  const env = fakeEnv({ clusters: [cluster], persistsStatus: options.persistsStatus ?? true });
  const init = { targetVersion: 'v1#1', holder: 'exec-1', ...(options.action ? { action: options.action } : {}) };
  const ref = await seedRun(env, cluster, init).then(toRef);
  return { env, ref };
}

describe('readControlPlane (the EKS creation hook)', () => {
  it('writes the three items to the registry once, and the run sees the cluster through the control plane', async () => {
    // Arrange
    const { env, ref } = await arrange(eks());
    env.eks.clusters.set('teapot-euc1', PLANE);

    // Act
    const first = await readControlPlane(ref, env.ports);
    const registered = (await env.registry.listClusters())[0]!;
    const second = await readControlPlane(ref, env.ports);
    const { cluster } = await openStep(env.ports, ref);

    // Assert
    expect(first).toMatchObject({ status: 'DONE', controlPlane: 'present' });
    expect(first.message).toBe(
      'EKS cluster teapot-euc1 (ACTIVE) at https://ABC.gr7.eu-central-1.eks.amazonaws.com; service_cidr 172.20.0.0/16; wrote eks_endpoint, eks_certificate_authority_data, eks_oidc_issuer_url to memory://test',
    );
    expect(registered.configItems).toEqual({
      eks_endpoint: PLANE.endpoint,
      eks_certificate_authority_data: 'Q0E=',
      eks_oidc_issuer_url: PLANE.oidcIssuerUrl,
    });
    expect(second.message).toMatch(/the registry's eks_\* config items are up to date$/);
    expect(env.eks.calls).toEqual(['teapot-euc1', 'teapot-euc1']);
    expect(cluster.apiServerUrl).toBe(PLANE.endpoint);
    expect(cluster.configItems).toMatchObject({
      service_cidr: '172.20.0.0/16',
      eks_certificate_authority_data: 'Q0E=',
    });
  });

  it('writes only the items that changed', async () => {
    const { env, ref } = await arrange(
      eks({
        eks_endpoint: PLANE.endpoint,
        eks_certificate_authority_data: 'b2xk',
        eks_oidc_issuer_url: PLANE.oidcIssuerUrl,
      }),
    );
    env.eks.clusters.set('teapot-euc1', PLANE);
    const writes: Record<string, string>[] = [];
    const update = env.registry.updateConfigItems.bind(env.registry);
    env.registry.updateConfigItems = async (id, items) => {
      writes.push(items);
      await update(id, items);
    };

    await readControlPlane(ref, env.ports);

    expect(writes).toEqual([{ eks_certificate_authority_data: 'Q0E=' }]);
  });

  it('keeps the written items in the stored status for a registry that cannot store them (clusters.yaml)', async () => {
    // Arrange: the registry forgets config-item writes, as the file does between processes
    const { env, ref } = await arrange(eks(), { persistsStatus: false });
    env.eks.clusters.set('teapot-euc1', PLANE);
    env.registry.updateConfigItems = async () => undefined;

    // Act
    await readControlPlane(ref, env.ports);
    const reread = await loadCluster(env.ports, ref.clusterId);
    const again = await readControlPlane(ref, env.ports);
    await writeStatus(env.ports, reread, { ...reread.status, currentVersion: 'v1#1' }, 'ready');
    const afterFinalize = await loadCluster(env.ports, ref.clusterId);

    // Assert
    expect(afterFinalize.configItems).toEqual(reread.configItems);
    expect(afterFinalize.lifecycleStatus).toBe('ready');
    expect(reread.configItems).toMatchObject({
      eks_endpoint: PLANE.endpoint,
      eks_oidc_issuer_url: PLANE.oidcIssuerUrl,
    });
    expect((await env.progress.getStatus(ref.clusterId))?.configItems).toEqual({
      eks_endpoint: PLANE.endpoint,
      eks_certificate_authority_data: 'Q0E=',
      eks_oidc_issuer_url: PLANE.oidcIssuerUrl,
    });
    expect(again.message).toMatch(/up to date$/);
  });

  it('fails the update when the main stack created no EKS cluster of the alias, changing nothing', async () => {
    const { env, ref } = await arrange(eks());

    const result = readControlPlane(ref, env.ports);

    await expect(result).rejects.toBeInstanceOf(NotFoundError);
    await expect(result).rejects.toThrow(
      /EKS cluster teapot-euc1 does not exist .* AWS::EKS::Cluster named as the cluster's alias/,
    );
    expect((await env.registry.listClusters())[0]!.configItems).toEqual({});
  });

  it('waits while EKS reports the cluster without an endpoint', async () => {
    const { env, ref } = await arrange(eks());
    env.eks.clusters.set('teapot-euc1', { ...PLANE, status: 'CREATING', endpoint: '', certificateAuthorityData: '' });

    expect(await readControlPlane(ref, env.ports)).toMatchObject({ status: 'IN_PROGRESS', waitSeconds: 30 });
    expect((await env.progress.getRun(ref.clusterId, ref.targetVersion))?.controlPlane).toBeUndefined();
  });

  it('decommission: a missing cluster is absent (nothing to delete); a present one is read, nothing written', async () => {
    const missing = await arrange(eks(), { action: 'decommission' });
    const present = await arrange(eks(), { action: 'decommission' });
    present.env.eks.clusters.set('teapot-euc1', PLANE);

    const absent = await readControlPlane(missing.ref, missing.env.ports);
    const found = await readControlPlane(present.ref, present.env.ports);

    expect(absent).toMatchObject({ status: 'DONE', controlPlane: 'absent' });
    expect(found).toMatchObject({ status: 'DONE', controlPlane: 'present' });
    expect((await present.env.registry.listClusters())[0]!.configItems).toEqual({});
    expect((await openStep(present.env.ports, present.ref)).cluster.apiServerUrl).toBe(PLANE.endpoint);
  });

  it('has nothing to read for zalando-aws clusters', async () => {
    const { env, ref } = await arrange(testCluster());

    expect(await readControlPlane(ref, env.ports)).toEqual({
      status: 'DONE',
      waitSeconds: 1,
      message: 'zalando-aws: the control plane is the master pools',
    });
    expect(env.eks.calls).toEqual([]);
  });
});
