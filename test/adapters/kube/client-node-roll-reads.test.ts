// ClientNodeKubeCluster: what the roll's gates read — VolumeAttachments (storage.k8s.io/v1, filtered by node) and the
// ready replicas of a pod's owner (apps/v1), against a fake API server on loopback.
import type { RestKubeCluster } from '../../../lambdas/adapters/kube/rest-kube-cluster';
import type { FakeKubeApi } from '../../support/fake-kube-api';
import { startFakeKubeCluster } from './kube-fixtures';

let api: FakeKubeApi;
let kube: RestKubeCluster;

beforeEach(async () => {
  ({ api, kube } = await startFakeKubeCluster());
  api.resources.push(
    { groupVersion: 'apps/v1', plural: 'replicasets', singular: 'replicaset', kind: 'ReplicaSet', namespaced: true },
    { groupVersion: 'apps/v1', plural: 'statefulsets', singular: 'statefulset', kind: 'StatefulSet', namespaced: true },
    {
      groupVersion: 'storage.k8s.io/v1',
      plural: 'volumeattachments',
      singular: 'volumeattachment',
      kind: 'VolumeAttachment',
      namespaced: false,
    },
  );
});
afterEach(() => api.close());

const attachment = (name: string, nodeName: string, pv: string | undefined, attached: boolean) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'VolumeAttachment',
  metadata: { name },
  spec: { attacher: 'ebs.csi.aws.com', nodeName, source: pv ? { persistentVolumeName: pv } : { inlineVolumeSpec: {} } },
  status: { attached },
});

describe('ClientNodeKubeCluster roll reads', () => {
  it('lists VolumeAttachments, all or those naming one node', async () => {
    // Arrange
    api.seed(attachment('csi-a', 'ip-10-0-0-5', 'pvc-1', true));
    api.seed(attachment('csi-b', 'ip-10-0-0-6', undefined, false));

    // Act
    const onNode = await kube.listVolumeAttachments('ip-10-0-0-5');
    const all = await kube.listVolumeAttachments();

    // Assert
    expect(onNode).toEqual([{ name: 'csi-a', nodeName: 'ip-10-0-0-5', persistentVolumeName: 'pvc-1', attached: true }]);
    expect(all.map((a) => [a.name, a.nodeName, a.attached])).toEqual([
      ['csi-a', 'ip-10-0-0-5', true],
      ['csi-b', 'ip-10-0-0-6', false],
    ]);
    expect(api.calls().map((r) => r.path)).toEqual([
      '/apis/storage.k8s.io/v1/volumeattachments',
      '/apis/storage.k8s.io/v1/volumeattachments',
    ]);
  });

  it("reads an owner's wanted and ready replicas; a missing owner or a kind it does not check is undefined", async () => {
    // Arrange
    api.seed({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-7d9f', namespace: 'default' },
      spec: { replicas: 3 },
      status: { replicas: 3, readyReplicas: 2 },
    });
    api.seed({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'pg', namespace: 'data' },
      spec: { replicas: 2 },
      status: {},
    });

    // Act
    const web = await kube.workloadReadiness({ kind: 'ReplicaSet', namespace: 'default', name: 'web-7d9f' });
    const pg = await kube.workloadReadiness({ kind: 'StatefulSet', namespace: 'data', name: 'pg' });
    const gone = await kube.workloadReadiness({ kind: 'StatefulSet', namespace: 'data', name: 'gone' });
    const job = await kube.workloadReadiness({ kind: 'Job', namespace: 'data', name: 'backup' });

    // Assert
    expect({ web, pg, gone, job }).toEqual({
      web: { desired: 3, ready: 2 },
      pg: { desired: 2, ready: 0 },
      gone: undefined,
      job: undefined,
    });
    expect(api.calls().map((r) => r.path)).toEqual([
      '/apis/apps/v1/namespaces/default/replicasets/web-7d9f',
      '/apis/apps/v1/namespaces/data/statefulsets/pg',
      '/apis/apps/v1/namespaces/data/statefulsets/gone',
    ]);
  });
});
