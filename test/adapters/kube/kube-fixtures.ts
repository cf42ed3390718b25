/** Arrange helpers shared by the KubeCluster adapter tests: a fake API server and what to seed it with. */
import { kubeServerTransport } from '../../../lambdas/adapters/kube/kube-server-transport';
import { RestKubeCluster } from '../../../lambdas/adapters/kube/rest-kube-cluster';
import { FakeKubeApi } from '../../support/fake-kube-api';

/**
 * A fake API server and a KubeCluster that reaches it with the token `test-token` the way the Lambda tasks do
 * (RestKubeCluster over Node's http, no client-node).
 */
export async function startFakeKubeCluster(): Promise<{ api: FakeKubeApi; kube: RestKubeCluster }> {
  const api = await FakeKubeApi.start();
  const transport = kubeServerTransport({ server: api.url, token: 'test-token', skipTLSVerify: true });
  return { api, kube: new RestKubeCluster(transport) };
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
