import type {
  ApplyResult,
  DeleteOptions,
  EvictionResult,
  KubeCluster,
  KubeObject,
  LabelSelector,
  NodeInfo,
  NodePatch,
  ObjectRef,
  PdbInfo,
  PodInfo,
  Taint,
} from '../../../lambdas/ports/kube-cluster';
import { matchesSelector } from '../../../lambdas/core/kube/label-selector';
import type { FakeClock } from './fake-clock';

export interface FakeNode {
  name: string;
  providerId: string;
  zone: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  taints: Taint[];
  unschedulable: boolean;
  ready: boolean;
  createdAt: string;
}

export interface FakePod {
  namespace: string;
  name: string;
  uid: string;
  nodeName?: string;
  phase: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  owner?: { kind: string; name: string };
  createdAt: number;
  /** Ready from this time on (undefined: never). */
  readyAt?: number;
  grace: number;
  deletingAt?: number;
  /** StatefulSet pods: their volume lives in this zone. */
  zone?: string;
}

export interface FakeWorkload {
  kind: 'Deployment' | 'StatefulSet';
  namespace: string;
  name: string;
  replicas: number;
  labels: Record<string, string>;
  grace: number;
}

interface FakePdb {
  namespace: string;
  name: string;
  selector: LabelSelector;
  minAvailable: number;
}

const key = (ref: { kind: string; namespace?: string; name: string }): string =>
  `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;

/**
 * A Kubernetes API with state: nodes, pods owned by Deployments/StatefulSets/DaemonSets, policy/v1 PDBs.
 * Evictions honour PDBs; evicted or deleted pods terminate for their grace period, then their owner
 * recreates them on a schedulable node (StatefulSet pods only in the zone of their volume) and they become
 * Ready `podStartMs` later. Time moves only with the FakeClock; state catches up on every call.
 */
export class FakeKubeCluster implements KubeCluster {
  readonly nodes = new Map<string, FakeNode>();
  readonly pods: FakePod[] = [];
  readonly workloads: FakeWorkload[] = [];
  readonly daemonSets: string[] = [];
  readonly pdbs: FakePdb[] = [];
  readonly objects = new Map<string, KubeObject>();
  /** Every call, in order: "evictPod default/web-1" etc. */
  readonly calls: string[] = [];
  /** Every patchNode, in order. */
  readonly patches: { node: string; patch: NodePatch }[] = [];
  /** Times a disruption left a PDB below its minimum. */
  pdbViolations = 0;
  /** Called before every API call (the pool backend boots instances here). */
  beforeCall?: () => void;
  podStartMs = 5_000;
  private seq = 0;

  constructor(readonly clock: FakeClock) {}

  // ---- arrange -------------------------------------------------------------------------------------

  addNode(name: string, zone: string, instanceId: string, extra: Partial<FakeNode> = {}): FakeNode {
    const node: FakeNode = {
      name,
      zone,
      providerId: `aws:///${zone}/${instanceId}`,
      labels: {},
      annotations: {},
      taints: [],
      unschedulable: false,
      ready: true,
      createdAt: new Date(this.clock.now()).toISOString(),
      ...extra,
    };
    this.nodes.set(name, node);
    for (const ds of this.daemonSets)
      this.createPod({
        namespace: 'kube-system',
        name: `${ds}-${name}`,
        owner: { kind: 'DaemonSet', name: ds },
        nodeName: name,
        labels: { app: ds },
      });
    this.reconcileWorkloads();
    return node;
  }

  /** The node and every pod on it vanish (instance terminated). */
  removeNode(name: string): void {
    this.nodes.delete(name);
    for (const pod of this.pods.filter((p) => p.nodeName === name)) this.dropPod(pod, true);
    this.reconcileWorkloads();
  }

  addWorkload(workload: Omit<FakeWorkload, 'grace'> & { grace?: number }, podsOn?: readonly string[]): void {
    const w: FakeWorkload = { grace: 30, ...workload };
    this.workloads.push(w);
    podsOn?.forEach((nodeName, i) => {
      const node = this.nodes.get(nodeName);
      this.createPod({
        namespace: w.namespace,
        name: `${w.name}-${i}`,
        owner: { kind: w.kind === 'Deployment' ? 'ReplicaSet' : w.kind, name: w.name },
        labels: { ...w.labels },
        nodeName,
        grace: w.grace,
        ...(w.kind === 'StatefulSet' && node ? { zone: node.zone } : {}),
        createdAt: this.clock.now() - 100 * 3_600_000,
        readyAt: 0,
      });
    });
    this.reconcileWorkloads();
  }

  addDaemonSet(name: string): void {
    this.daemonSets.push(name);
    for (const node of this.nodes.values())
      this.createPod({
        namespace: 'kube-system',
        name: `${name}-${node.name}`,
        owner: { kind: 'DaemonSet', name },
        nodeName: node.name,
        labels: { app: name },
      });
  }

  addPdb(namespace: string, name: string, matchLabels: Record<string, string>, minAvailable: number): void {
    this.pdbs.push({ namespace, name, selector: { matchLabels }, minAvailable });
  }

  /** A pod with no controller the fake manages (mirror pods, finished pods, bare pods). */
  createPod(init: Partial<FakePod> & { namespace: string; name: string }): FakePod {
    const pod: FakePod = {
      phase: 'Running',
      labels: {},
      annotations: {},
      createdAt: this.clock.now(),
      readyAt: this.clock.now(),
      grace: 30,
      uid: `uid-${++this.seq}`,
      ...init,
    };
    this.pods.push(pod);
    return pod;
  }

  /** Let time catch up: pods past their grace period are gone, owners recreate missing pods. */
  sync(): void {
    this.beforeCall?.();
    const now = this.clock.now();
    for (const pod of this.pods.filter((p) => p.deletingAt !== undefined && now >= p.deletingAt + p.grace * 1000))
      this.dropPod(pod, false);
    this.reconcileWorkloads();
  }

  // ---- KubeCluster ---------------------------------------------------------------------------------

  async ready(): Promise<boolean> {
    this.calls.push('ready');
    return true;
  }

  async apply(
    objects: readonly KubeObject[],
    options: { readonly fieldManager: string; readonly dryRun?: boolean },
  ): Promise<ApplyResult[]> {
    return objects.map((object) => {
      const ref = {
        apiVersion: object.apiVersion,
        kind: object.kind,
        ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
        name: object.metadata.name,
      };
      this.calls.push(`apply ${key(ref)}`);
      const before = this.objects.get(key(ref));
      if (!options.dryRun) this.objects.set(key(ref), object);
      const action = !before
        ? 'created'
        : JSON.stringify(before) === JSON.stringify(object)
          ? 'unchanged'
          : 'configured';
      return { ref, action } satisfies ApplyResult;
    });
  }

  async delete(ref: ObjectRef, _options?: DeleteOptions): Promise<'deleted' | 'not-found'> {
    this.calls.push(`delete ${key(ref)}`);
    return this.objects.delete(key(ref)) ? 'deleted' : 'not-found';
  }

  async list(
    kind: string,
    options: { readonly namespace?: string; readonly labelSelector?: string } = {},
  ): Promise<KubeObject[]> {
    this.calls.push(`list ${kind}`);
    const selector = parseSelector(options.labelSelector);
    return [...this.objects.values()].filter(
      (o) =>
        o.kind === kind &&
        (options.namespace === undefined || o.metadata.namespace === options.namespace) &&
        matchesSelector(selector, o.metadata.labels ?? {}),
    );
  }

  async annotate(ref: ObjectRef, annotations: Readonly<Record<string, string>>): Promise<void> {
    this.calls.push(`annotate ${key(ref)}`);
    const object = this.objects.get(key(ref));
    if (object)
      this.objects.set(key(ref), {
        ...object,
        metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, ...annotations } },
      });
  }

  async listNodes(): Promise<NodeInfo[]> {
    this.sync();
    this.calls.push('listNodes');
    return [...this.nodes.values()].map((n) => this.nodeInfo(n));
  }

  async patchNode(name: string, patch: NodePatch): Promise<void> {
    this.sync();
    this.calls.push(`patchNode ${name}`);
    this.patches.push({ node: name, patch });
    const node = this.nodes.get(name);
    if (!node) throw new Error(`node ${name} not found`);
    if (patch.unschedulable !== undefined) node.unschedulable = patch.unschedulable;
    if (patch.taints) node.taints = [...patch.taints];
    for (const [k, v] of Object.entries(patch.labels ?? {}))
      if (v === null) delete node.labels[k];
      else node.labels[k] = v;
    for (const [k, v] of Object.entries(patch.annotations ?? {}))
      if (v === null) delete node.annotations[k];
      else node.annotations[k] = v;
  }

  async listPods(
    options: { readonly nodeName?: string; readonly namespace?: string; readonly labelSelector?: string } = {},
  ): Promise<PodInfo[]> {
    this.sync();
    this.calls.push(`listPods ${options.nodeName ?? options.namespace ?? ''}`.trim());
    const selector = parseSelector(options.labelSelector);
    return this.pods
      .filter(
        (p) =>
          (options.nodeName === undefined || p.nodeName === options.nodeName) &&
          (options.namespace === undefined || p.namespace === options.namespace) &&
          matchesSelector(selector, p.labels),
      )
      .map((p) => this.podInfo(p));
  }

  async evictPod(namespace: string, name: string, _gracePeriodSeconds?: number): Promise<EvictionResult> {
    this.sync();
    this.calls.push(`evictPod ${namespace}/${name}`);
    const pod = this.pods.find((p) => p.namespace === namespace && p.name === name);
    if (!pod) return 'not-found';
    if (pod.deletingAt !== undefined) return 'evicted';
    if (this.healthy(pod) && this.covering(pod).some((pdb) => this.status(pdb).disruptionsAllowed < 1))
      return 'blocked-by-pdb';
    pod.deletingAt = this.clock.now();
    this.checkPdbs();
    return 'evicted';
  }

  async deletePod(namespace: string, name: string, _gracePeriodSeconds?: number): Promise<'deleted' | 'not-found'> {
    this.sync();
    this.calls.push(`deletePod ${namespace}/${name}`);
    const pod = this.pods.find((p) => p.namespace === namespace && p.name === name);
    if (!pod) return 'not-found';
    pod.deletingAt ??= this.clock.now();
    this.checkPdbs();
    return 'deleted';
  }

  async listPdbs(namespace?: string): Promise<PdbInfo[]> {
    this.sync();
    this.calls.push('listPdbs');
    return this.pdbs
      .filter((p) => namespace === undefined || p.namespace === namespace)
      .map((pdb) => ({
        namespace: pdb.namespace,
        name: pdb.name,
        selector: pdb.selector,
        minAvailable: pdb.minAvailable,
        ...this.status(pdb),
      }));
  }

  async scaleDeployment(namespace: string, name: string, replicas: number): Promise<void> {
    this.calls.push(`scaleDeployment ${namespace}/${name}`);
    const workload = this.workloads.find((w) => w.namespace === namespace && w.name === name);
    if (workload) workload.replicas = replicas;
  }

  // ---- observations ----------------------------------------------------------------------------------

  /** PDBs whose healthy pods are below their minimum right now, e.g. "default/web 1<2". */
  pdbsBelowMinimum(): string[] {
    return this.pdbs
      .map((pdb) => ({ pdb, s: this.status(pdb) }))
      .filter(({ s }) => s.currentHealthy < s.desiredHealthy)
      .map(({ pdb, s }) => `${pdb.namespace}/${pdb.name} ${s.currentHealthy}<${s.desiredHealthy}`);
  }

  callCount(prefix: string): number {
    return this.calls.filter((c) => c.startsWith(prefix)).length;
  }

  // ---- internals -----------------------------------------------------------------------------------

  private healthy(pod: FakePod): boolean {
    return (
      pod.deletingAt === undefined &&
      pod.nodeName !== undefined &&
      pod.readyAt !== undefined &&
      this.clock.now() >= pod.readyAt &&
      pod.phase === 'Running'
    );
  }

  private covering(pod: FakePod): FakePdb[] {
    return this.pdbs.filter((pdb) => pdb.namespace === pod.namespace && matchesSelector(pdb.selector, pod.labels));
  }

  private status(
    pdb: FakePdb,
  ): Pick<PdbInfo, 'disruptionsAllowed' | 'currentHealthy' | 'desiredHealthy' | 'expectedPods'> {
    const matching = this.pods.filter(
      (p) =>
        p.namespace === pdb.namespace &&
        matchesSelector(pdb.selector, p.labels) &&
        p.phase !== 'Succeeded' &&
        p.phase !== 'Failed',
    );
    const currentHealthy = matching.filter((p) => this.healthy(p)).length;
    return {
      currentHealthy,
      desiredHealthy: pdb.minAvailable,
      disruptionsAllowed: Math.max(0, currentHealthy - pdb.minAvailable),
      expectedPods: matching.length,
    };
  }

  private checkPdbs(): void {
    this.pdbViolations += this.pdbsBelowMinimum().length;
  }

  private dropPod(pod: FakePod, nodeGone: boolean): void {
    const index = this.pods.indexOf(pod);
    if (index >= 0) this.pods.splice(index, 1);
    if (nodeGone && pod.deletingAt === undefined && this.healthy({ ...pod, deletingAt: undefined })) this.checkPdbs();
  }

  /** Owners keep their replica count: missing pods are created, pending ones are scheduled. */
  private reconcileWorkloads(): void {
    const now = this.clock.now();
    for (const w of this.workloads) {
      const ownerKind = w.kind === 'Deployment' ? 'ReplicaSet' : w.kind;
      const mine = this.pods.filter(
        (p) => p.owner?.name === w.name && p.owner.kind === ownerKind && p.namespace === w.namespace,
      );
      const live = mine.filter((p) => p.deletingAt === undefined);
      for (let i = live.length; i < w.replicas; i++) {
        // StatefulSet pods keep their name and their volume's zone; the old pod must be gone first.
        const gone = w.kind === 'StatefulSet' ? this.missingOrdinal(w, mine) : undefined;
        if (w.kind === 'StatefulSet' && gone === undefined) break;
        const name = gone?.name ?? `${w.name}-${++this.seq}`;
        this.createPod({
          namespace: w.namespace,
          name,
          owner: { kind: ownerKind, name: w.name },
          labels: { ...w.labels },
          grace: w.grace,
          createdAt: now,
          readyAt: undefined,
          ...(gone?.zone ? { zone: gone.zone } : {}),
        });
        mine.push(this.pods[this.pods.length - 1]!);
      }
    }
    for (const pod of this.pods.filter((p) => p.nodeName === undefined && p.deletingAt === undefined)) {
      const node = this.schedulable(pod.zone);
      if (node) {
        pod.nodeName = node.name;
        pod.readyAt = now + this.podStartMs;
      }
    }
  }

  private readonly statefulZones = new Map<string, string>();

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

  private schedulable(zone?: string): FakeNode | undefined {
    const candidates = [...this.nodes.values()].filter(
      (n) =>
        n.ready &&
        !n.unschedulable &&
        !n.taints.some((t) => t.effect === 'NoSchedule') &&
        (zone === undefined || n.zone === zone),
    );
    const load = (n: FakeNode): number =>
      this.pods.filter((p) => p.nodeName === n.name && p.owner?.kind !== 'DaemonSet').length +
      (n.taints.length > 0 ? 1000 : 0);
    return candidates.sort((a, b) => load(a) - load(b) || a.name.localeCompare(b.name))[0];
  }

  private nodeInfo(n: FakeNode): NodeInfo {
    return {
      name: n.name,
      providerId: n.providerId,
      labels: { ...n.labels },
      annotations: { ...n.annotations },
      taints: [...n.taints],
      unschedulable: n.unschedulable,
      ready: n.ready,
      volumesAttached: this.pods.some((p) => p.nodeName === n.name && p.owner?.kind === 'StatefulSet'),
      zone: n.zone,
      createdAt: n.createdAt,
    };
  }

  private podInfo(p: FakePod): PodInfo {
    return {
      namespace: p.namespace,
      name: p.name,
      uid: p.uid,
      ...(p.nodeName ? { nodeName: p.nodeName } : {}),
      phase: p.nodeName ? p.phase : 'Pending',
      ready: this.healthy(p) || (p.deletingAt !== undefined && p.readyAt !== undefined),
      labels: { ...p.labels },
      annotations: { ...p.annotations },
      ...(p.owner ? { owner: { ...p.owner } } : {}),
      createdAt: new Date(p.createdAt).toISOString(),
      terminationGracePeriodSeconds: p.grace,
      deleting: p.deletingAt !== undefined,
    };
  }
}

function parseSelector(text?: string): LabelSelector {
  if (!text) return {};
  return {
    matchLabels: Object.fromEntries(
      text.split(',').map((part) => part.split('=').map((s) => s.trim()) as [string, string]),
    ),
  };
}
