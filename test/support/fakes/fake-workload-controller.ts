/**
 * The controllers of FakeKubeCluster: owners keep their replica count (missing pods are created; StatefulSet pods
 * keep their name and their volume's zone, and come back only once the old pod is gone), and pending pods are
 * scheduled on the least loaded schedulable node, becoming Ready `podStartMs` later.
 */
import type { FakeClock } from './fake-clock';
import type { FakeNode, FakePod, FakeWorkload } from './fake-kube-model';

/** The state the controllers work on (FakeKubeCluster). */
export interface WorkloadHost {
  readonly clock: FakeClock;
  readonly nodes: ReadonlyMap<string, FakeNode>;
  readonly pods: readonly FakePod[];
  readonly workloads: readonly FakeWorkload[];
  readonly podStartMs: number;
  createPod(init: Partial<FakePod> & { namespace: string; name: string }): FakePod;
}

export class FakeWorkloadController {
  /** The zone of each StatefulSet pod's volume, by namespace/name. */
  private readonly statefulZones = new Map<string, string>();

  /** `uniqueSuffix` names Deployment pods (`web-7`). */
  reconcile(host: WorkloadHost, uniqueSuffix: () => number): void {
    const now = host.clock.now();
    for (const w of host.workloads) {
      const ownerKind = w.kind === 'Deployment' ? 'ReplicaSet' : w.kind;
      const mine = host.pods.filter(
        (p) => p.owner?.name === w.name && p.owner.kind === ownerKind && p.namespace === w.namespace,
      );
      const live = mine.filter((p) => p.deletingAt === undefined);
      for (let i = live.length; i < w.replicas; i++) {
        // StatefulSet pods keep their name and their volume's zone; the old pod must be gone first.
        const gone = w.kind === 'StatefulSet' ? this.missingOrdinal(w, mine) : undefined;
        if (w.kind === 'StatefulSet' && gone === undefined) break;
        const name = gone?.name ?? `${w.name}-${uniqueSuffix()}`;
        const pod = host.createPod({
          namespace: w.namespace,
          name,
          owner: { kind: ownerKind, name: w.name },
          labels: { ...w.labels },
          grace: w.grace,
          createdAt: now,
          readyAt: undefined,
          ...(gone?.zone ? { zone: gone.zone } : {}),
        });
        mine.push(pod);
      }
    }
    for (const pod of host.pods.filter((p) => p.nodeName === undefined && p.deletingAt === undefined)) {
      const node = schedulableNode(host, pod.zone);
      if (node) {
        pod.nodeName = node.name;
        pod.readyAt = now + host.podStartMs;
      }
    }
  }

  private missingOrdinal(w: FakeWorkload, mine: FakePod[]): { name: string; zone?: string } | undefined {
    for (let i = 0; i < w.replicas; i++) {
      const name = `${w.name}-${i}`;
      const existing = mine.find((p) => p.name === name);
      if (existing?.zone) this.statefulZones.set(`${w.namespace}/${name}`, existing.zone);
      if (!existing) {
        const zone = this.statefulZones.get(`${w.namespace}/${name}`);
        return { name, ...(zone ? { zone } : {}) };
      }
    }
    return undefined;
  }
}

/** The Ready, schedulable, untainted node (in `zone` if given) with the fewest non-DaemonSet pods. */
function schedulableNode(host: WorkloadHost, zone?: string): FakeNode | undefined {
  const candidates = [...host.nodes.values()].filter(
    (n) =>
      n.ready &&
      !n.unschedulable &&
      !n.taints.some((t) => t.effect === 'NoSchedule') &&
      (zone === undefined || n.zone === zone),
  );
  const load = (n: FakeNode): number =>
    host.pods.filter((p) => p.nodeName === n.name && p.owner?.kind !== 'DaemonSet').length +
    (n.taints.length > 0 ? 1000 : 0);
  return candidates.sort((a, b) => load(a) - load(b) || a.name.localeCompare(b.name))[0];
}
