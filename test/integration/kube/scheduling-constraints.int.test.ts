// The simulator's scheduler against a real kube-scheduler: the same workloads (test/support/constraint-workloads.ts)
// on three KWOK workers in three zones and on three simulated workers in three zones leave the same pods Pending,
// those kube-scheduler's hard constraints (required node affinity, required pod anti-affinity per node and per zone,
// DoNotSchedule topology spread) leave nowhere to go.
import { resourcesOf } from '../../../lambdas/core/kube/pod-resources';
import type { KubeCluster, KubeObject, PodInfo } from '../../../lambdas/ports/kube-cluster';
import { runningCluster } from '../../sim/fixtures';
import { EXPECTED_PENDING, NAMESPACE, constraintWorkloads, pendingOf } from '../../support/constraint-workloads';
import { eventually } from '../support/eventually';
import { FIELD_MANAGER, KWOK_NODES, KubeExampleCluster } from '../support/kube-example-cluster';

const cluster = new KubeExampleCluster();

beforeAll(() => cluster.setUp(), 180_000);
afterAll(async () => {
  await cluster.kube.delete({ kind: 'Namespace', name: NAMESPACE }).catch(() => undefined);
  await cluster.tearDown();
}, 180_000);

/** The last worker's name and allocatable CPU, as its API server reports them. */
async function fullWorker(kube: Pick<KubeCluster, 'list'>, names: readonly string[]) {
  const node = (await kube.list('Node')).find((n) => n.metadata.name === names[names.length - 1])!;
  return {
    name: node.metadata.name,
    cpu: resourcesOf((node.status as { allocatable: unknown }).allocatable).cpuMillis,
  };
}

const unschedulable = (pod: KubeObject) =>
  ((pod.status as { conditions?: { type: string; status: string; reason?: string }[] })?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );

describe('required scheduling constraints, kube-scheduler and the simulator', () => {
  it('leave the same pods Pending', async () => {
    // Arrange: the real cluster
    const kube = cluster.kube;
    const real = await fullWorker(kube, [...KWOK_NODES].sort());
    const workloads = constraintWorkloads(real.name, real.cpu);
    await kube.apply(workloads.filler, { fieldManager: FIELD_MANAGER });
    await eventually(
      'the filler placed',
      async () =>
        (await kube.listPods({ namespace: NAMESPACE })).some((p: PodInfo) => p.nodeName === real.name) || undefined,
    );

    // Act 1: kube-scheduler places what it can; the rest it marks Unschedulable
    await kube.apply(workloads.rest, { fieldManager: FIELD_MANAGER });
    const pending = await eventually(
      'kube-scheduler has tried every pod',
      async () => {
        const pods = await kube.list('Pod', { namespace: NAMESPACE });
        const waiting = pods.filter((p) => !(p.spec as { nodeName?: string }).nodeName);
        const total = Object.values(EXPECTED_PENDING).reduce((n: number, k) => n + k, 0);
        return waiting.length === total && waiting.every(unschedulable) ? waiting : undefined;
      },
      120_000,
      500,
    );

    // Act 2: the simulator with the same workloads
    const { world, ports } = await runningCluster({}, 3);
    const workers = (await ports.kube.list('Node'))
      .filter((n) => n.metadata.labels?.['node.kubernetes.io/role'] === 'worker')
      .map((n) => n.metadata.name)
      .sort();
    const simulated = await fullWorker(ports.kube, workers);
    const twin = constraintWorkloads(simulated.name, simulated.cpu);
    await ports.kube.apply(twin.filler, { fieldManager: FIELD_MANAGER });
    world.advance(30_000);
    await ports.kube.apply(twin.rest, { fieldManager: FIELD_MANAGER });
    world.advance(120_000);

    // Assert: the same Pending pods per workload, and those kube-scheduler's rules predict
    const realPending = pendingOf(pending!.map((p) => ({ name: p.metadata.name })));
    expect(realPending).toEqual(EXPECTED_PENDING);
    expect(pendingOf(await ports.kube.listPods({ namespace: NAMESPACE }))).toEqual(realPending);
  }, 300_000);
});
