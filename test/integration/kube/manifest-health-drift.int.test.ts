import { clientNodeTransport } from '../../../lambdas/adapters/kube/client-node-transport';
import { kubeConfigFrom } from '../../../lambdas/adapters/kube/kube-connection';
import { KubeRest } from '../../../lambdas/adapters/kube/kube-rest';
import { awaitHealth, type HealthEffects } from '../../../lambdas/tasks/manifests/await-health';
import type { ResourcesArtifact } from '../../../lambdas/contracts/artifacts';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import type { KubeObject } from '../../../lambdas/ports/kube-cluster';
import { WorkloadsUnhealthyError } from '../../../lambdas/shared/errors';
import { integrationEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { LeaseHeartbeat } from '../support/kubelet-stand-ins';

// Health after apply and drift detection against a real kube-apiserver + controller-manager + scheduler, KWOK as the
// kubelets: a Deployment on KWOK nodes becomes available; one whose pods no node fits never does; a kubectl-style
// edit (an update by another field manager) shows in the server-side apply dry run, field and manager named.
const kube = new ClientNodeKubeCluster({ kubeconfigPath: integrationEnvironment().kubeconfig });
const rest = new KubeRest(clientNodeTransport(kubeConfigFrom({ kubeconfigPath: integrationEnvironment().kubeconfig })));
const FM = 'clm';
const NAMESPACE = 'health-int';
const NODE = 'health-int-a';
const heartbeat = new LeaseHeartbeat(kube, async () => [NODE]);

const deployment = (name: string, nodeSelector: Record<string, string>): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: NAMESPACE },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { nodeSelector, containers: [{ name: 'app', image: 'registry.example/app:1' }] },
    },
  },
});

const resourcesOf = (objects: KubeObject[]): ResourcesArtifact =>
  ({ manifests: [{ file: 'test.yaml', objects }] }) as unknown as ResourcesArtifact;

const effects = (): HealthEffects => ({
  markSince: async () => undefined,
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
  now: () => Date.now(),
  outOfTime: () => false,
});

beforeAll(async () => {
  await kube.apply(
    [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } },
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: NODE, labels: { type: 'kwok', 'health-int': 'yes' } },
        spec: { providerID: 'aws:///eu-central-1a/i-0health' },
      },
    ],
    { fieldManager: FM },
  );
  heartbeat.start();
  await eventually('the KWOK node Ready', async () => (await kube.listNodes()).some((n) => n.name === NODE && n.ready));
});

afterAll(async () => {
  await kube.delete({ kind: 'Namespace', name: NAMESPACE }, { propagationPolicy: 'Background' });
  await kube.delete({ kind: 'Node', name: NODE });
  await heartbeat.stop();
  // The namespace controller empties and removes the namespace after the DELETE returns; the suites that follow
  // compare the API server's objects before and after their own work, so this one leaves only when it is gone.
  await eventually(
    `namespace ${NAMESPACE} and node ${NODE} removed`,
    async () =>
      !(await kube.list('Namespace')).some((n) => n.metadata.name === NAMESPACE) &&
      !(await kube.listNodes()).some((n) => n.name === NODE),
    110_000,
  );
}, 120_000);

describe('health after apply on kube-apiserver + KWOK', () => {
  it('waits until a Deployment is rolled out (observedGeneration, updated and available replicas)', async () => {
    const ready = deployment('ready-app', { 'health-int': 'yes' });
    await kube.apply([ready], { fieldManager: FM });

    const step = await awaitHealth(
      kube,
      {
        clusterId: 'int',
        items: { manifest_health_timeout: '2m' },
        resources: resourcesOf([ready]),
        phases: {},
        now: Date.now(),
      },
      effects(),
    );

    expect(step).toEqual(expect.objectContaining({ status: 'DONE', message: '1 workload(s) healthy' }));
  });

  it('fails on a Deployment whose pods no node fits, naming it and the scheduler’s reason', async () => {
    const stuck = deployment('stuck-app', { 'no-such-node': 'anywhere' });
    await kube.apply([stuck], { fieldManager: FM });

    const waited = awaitHealth(
      kube,
      {
        clusterId: 'int',
        items: { manifest_health_timeout: '15s' },
        resources: resourcesOf([stuck]),
        phases: {},
        now: Date.now(),
      },
      effects(),
    );

    await expect(waited).rejects.toBeInstanceOf(WorkloadsUnhealthyError);
    await expect(waited).rejects.toThrow(
      'Deployment health-int/stuck-app: 0/2 available, 2/2 updated (pods: 2 Unschedulable)',
    );
  });
});

describe('drift detection on kube-apiserver', () => {
  it('names the field another field manager changed, and its manager, in the server-side apply dry run', async () => {
    const config: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'drift', namespace: NAMESPACE },
      data: { level: 'info', mode: 'a' },
    };
    await kube.apply([config], { fieldManager: FM });
    const clean = await kube.apply([config], { fieldManager: FM, dryRun: true });
    // what `kubectl edit` sends: a merge patch, an update by its own field manager
    await rest.ok(
      {
        method: 'PATCH',
        path: `/api/v1/namespaces/${NAMESPACE}/configmaps/drift`,
        query: { fieldManager: 'kubectl-edit' },
        body: { data: { level: 'debug' } },
        contentType: 'application/merge-patch+json',
      },
      'kubectl edit configmap drift',
    );

    const drifted = await kube.apply([config], { fieldManager: FM, dryRun: true });
    const [live] = (await kube.list('ConfigMap', { namespace: NAMESPACE })).filter((c) => c.metadata.name === 'drift');

    expect(clean[0]!.action).toBe('unchanged');
    expect(drifted[0]).toEqual(
      expect.objectContaining({ action: 'configured', changes: [{ path: 'data.level', manager: 'kubectl-edit' }] }),
    );
    // the dry run changed nothing
    expect(live!.data).toEqual({ level: 'debug', mode: 'a' });
  });
});
