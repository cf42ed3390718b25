import { clientNodeTransport } from '../../../lambdas/adapters/kube/client-node-transport';
import { kubeConfigFrom } from '../../../lambdas/adapters/kube/kube-connection';
import { KubeRest } from '../../../lambdas/adapters/kube/kube-rest';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { isUnhealthy } from '../../../lambdas/core/node-renewal/unhealthy-nodes';
import type { KubeObject } from '../../../lambdas/ports/kube-cluster';
import { integrationEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { LeaseHeartbeat } from '../support/kubelet-stand-ins';

// Node repair's clock against the real node lifecycle controller (kube-controller-manager): a KWOK node whose kubelet
// stand-ins stop — KWOK no longer manages it, its Lease is no longer renewed — turns Ready "Unknown" once the
// controller's node-monitor-grace-period (50 s by default) has passed, and the kube adapter's node mapping reports
// `notReadySince` from that condition's lastTransitionTime: the time node_repair_after counts from.
const kubeconfigPath = integrationEnvironment().kubeconfig;
const kube = new ClientNodeKubeCluster({ kubeconfigPath });
const rest = new KubeRest(clientNodeTransport(kubeConfigFrom({ kubeconfigPath })));
const FM = 'clm-int-notready';
const NODE = 'notready-int-a';
const heartbeat = new LeaseHeartbeat(kube, async () => [NODE]);

/** The Node as this suite applies it: with `type: kwok`, KWOK plays its kubelet; without, nothing does. */
const nodeObject = (kwok: boolean): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: NODE, labels: { 'notready-int': 'yes', ...(kwok ? { type: 'kwok' } : {}) } },
  spec: { providerID: 'aws:///eu-central-1a/i-0notready' },
});

interface NodeCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly lastTransitionTime?: string;
}

async function readyCondition(): Promise<NodeCondition | undefined> {
  const response = await rest.ok({ method: 'GET', path: `/api/v1/nodes/${NODE}` }, `GET node ${NODE}`);
  const node = response.body as { status?: { conditions?: NodeCondition[] } };
  return node.status?.conditions?.find((c) => c.type === 'Ready');
}

beforeAll(async () => {
  await kube.apply([nodeObject(true)], { fieldManager: FM });
  heartbeat.start();
  await eventually('the KWOK node Ready', async () => (await kube.listNodes()).some((n) => n.name === NODE && n.ready));
});

afterAll(async () => {
  await heartbeat.stop();
  await kube.delete({ kind: 'Node', name: NODE });
  // The heartbeat's Lease has no owner reference to the node (a kubelet's has): deleted here, not by the collector.
  await kube.delete({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-node-lease', name: NODE });
  await eventually(
    `node ${NODE} and its Lease removed`,
    async () =>
      !(await kube.listNodes()).some((n) => n.name === NODE) &&
      !(await kube.list('Lease', { namespace: 'kube-node-lease' })).some((l) => l.metadata.name === NODE),
    60_000,
  );
}, 90_000);

describe('notReadySince on kube-apiserver + kube-controller-manager', () => {
  it('reports when the node lifecycle controller found the node unreachable, from its Ready condition', async () => {
    // Arrange: the node is Ready, as KWOK and the heartbeat keep it
    expect((await readyCondition())?.status).toBe('True');

    // Act: its "kubelet" stops — no more status from KWOK, no more Lease renewals
    await heartbeat.stop();
    await kube.apply([nodeObject(false)], { fieldManager: FM });
    const stoppedAt = Date.now();
    const lost = (await eventually(
      'the node lifecycle controller to mark the node not Ready',
      async () => (await kube.listNodes()).find((n) => n.name === NODE && !n.ready),
      150_000,
      1_000,
    ))!;

    // Assert: Unknown, set by the controller; notReadySince is the condition's lastTransitionTime, after the stop
    const condition = await readyCondition();
    expect(condition).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown' });
    expect(lost.notReadySince).toBe(new Date(condition!.lastTransitionTime!).toISOString());
    expect(lost.notReadyReason).toContain('NodeStatusUnknown');
    const since = Date.parse(lost.notReadySince!);
    // The API server's clock is this machine's; its times have whole seconds.
    expect(since).toBeGreaterThanOrEqual(Math.floor(stoppedAt / 1000) * 1000);
    // node_repair_after counts from it: unhealthy 10 minutes later, not a second before
    expect(isUnhealthy(lost, 10 * 60_000, since + 10 * 60_000)).toBe(true);
    expect(isUnhealthy(lost, 10 * 60_000, since + 10 * 60_000 - 1000)).toBe(false);
  }, 170_000);
});
