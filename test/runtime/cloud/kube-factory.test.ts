// The kube client cache of a warm container: one client per cluster, built again when the registry changes the
// cluster's API server URL, CA or auth items (a container outlives such a change).
import type { Cluster } from '../../../lambdas/core/model/cluster';
import type { KubeCluster } from '../../../lambdas/ports/kube-cluster';
import { kubeFactory } from '../../../lambdas/runtime/cloud/kube-factory';
import { testCluster } from '../../sim/fixtures';

const CA_ONE = Buffer.from('-----BEGIN CERTIFICATE-----\nONE\n-----END CERTIFICATE-----\n').toString('base64');
const CA_TWO = Buffer.from('-----BEGIN CERTIFICATE-----\nTWO\n-----END CERTIFICATE-----\n').toString('base64');

/** A factory whose clients remember what they were connected to. */
function recording() {
  const connects: string[] = [];
  const kube = kubeFactory({ token: 't' }, (cluster: Cluster) => {
    connects.push(`${cluster.id} ${cluster.apiServerUrl}`);
    return { server: cluster.apiServerUrl, ca: cluster.configItems.kube_ca_data } as unknown as KubeCluster;
  });
  return { kube, connects };
}

describe('kubeFactory', () => {
  it('keeps one client per cluster while its connection is unchanged (the registry read again gives a new object)', () => {
    // Arrange
    const { kube, connects } = recording();
    const cluster = testCluster({ configItems: { kube_ca_data: CA_ONE } });

    // Act
    const clients = [kube(cluster), kube({ ...cluster, configItems: { ...cluster.configItems } }), kube(cluster)];

    // Assert
    expect(clients[1]).toBe(clients[0]);
    expect(clients[2]).toBe(clients[0]);
    expect(connects).toHaveLength(1);
  });

  it.each([
    ['API server URL', (c: Cluster): Cluster => ({ ...c, apiServerUrl: 'https://api.moved.example.org' })],
    ['CA', (c: Cluster): Cluster => ({ ...c, configItems: { ...c.configItems, kube_ca_data: CA_TWO } })],
    [
      'auth mode',
      (c: Cluster): Cluster => ({
        ...c,
        configItems: { ...c.configItems, kube_auth: 'eks', kube_eks_cluster_name: 'kube-1' },
      }),
    ],
    [
      'token secret',
      (c: Cluster): Cluster => ({ ...c, configItems: { ...c.configItems, kube_token_secret: 'clm/clusters/kube-1' } }),
    ],
  ])("connects again when the cluster's %s changed", (_, change) => {
    // Arrange
    const { kube, connects } = recording();
    const before = testCluster({ configItems: { kube_ca_data: CA_ONE } });
    const after = change(before);
    const first = kube(before);

    // Act
    const second = kube(after);

    // Assert
    expect(second).not.toBe(first);
    expect(connects).toHaveLength(2);
    expect(kube(after)).toBe(second);
  });

  it('keeps clusters apart and only the latest client of each', () => {
    // Arrange
    const { kube, connects } = recording();
    const one = testCluster();
    const two = testCluster({ id: 'aws:123456789012:eu-central-1:kube-2', apiServerUrl: 'https://kube-2.example.org' });
    const moved = { ...one, apiServerUrl: 'https://moved.example.org' };

    // Act
    const clients = [kube(one), kube(two), kube(moved), kube(one)];

    // Assert: going back to the old URL connects again (the old client was forgotten, not kept forever)
    expect(new Set(clients).size).toBe(4);
    expect(connects).toEqual([
      `${one.id} ${one.apiServerUrl}`,
      `${two.id} https://kube-2.example.org`,
      `${one.id} https://moved.example.org`,
      `${one.id} ${one.apiServerUrl}`,
    ]);
  });
});
