/** Arrange helpers shared by the ClientNodeKubeCluster tests: a fake API server and what to seed it with. */
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { FakeKubeApi } from '../../support/fake-kube-api';

/** A fake API server and a ClientNodeKubeCluster that reaches it with the token `test-token`. */
export async function startFakeKubeCluster(): Promise<{ api: FakeKubeApi; kube: ClientNodeKubeCluster }> {
  const api = await FakeKubeApi.start();
  return { api, kube: new ClientNodeKubeCluster({ server: api.url, token: 'test-token', skipTLSVerify: true }) };
}

/** A Ready node in eu-central-1a with a provider id. */
export function seedNode(
  api: FakeKubeApi,
  name: string,
  extra: { labels?: Record<string, string>; spec?: Record<string, unknown>; status?: Record<string, unknown> } = {},
) {
  api.seed({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'topology.kubernetes.io/zone': 'eu-central-1a', ...extra.labels },
      annotations: { a: 'b' },
    },
    spec: { providerID: `aws:///eu-central-1a/i-${name}`, ...extra.spec },
    status: { conditions: [{ type: 'Ready', status: 'True' }], ...extra.status },
  });
}

/** A Running, Ready pod of a ReplicaSet on `nodeName`. */
export function seedPod(
  api: FakeKubeApi,
  namespace: string,
  name: string,
  nodeName: string,
  extra: Record<string, unknown> = {},
) {
  api.seed({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: { app: name },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-rs`, uid: 'u' }],
      ...extra,
    },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  });
}
