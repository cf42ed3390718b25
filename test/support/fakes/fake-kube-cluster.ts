import type {
  EvictionResult,
  KubeCluster,
  NodeInfo,
  NodePatch,
  PdbInfo,
  PodInfo,
  VolumeAttachmentInfo,
  WorkloadReadiness,
  WorkloadRef,
} from '../../../lambdas/ports/kube-cluster';
import { matches, parseSelector } from '../../../lambdas/core/kube/label-selector';
import type { FakeClock } from './fake-clock';
import { FakeApiServer } from './fake-api-server';
import type { FakeNode, FakePdb, FakePod, FakeWorkload } from './fake-kube-model';
import { isHealthy, nodeInfo, podInfo } from './fake-kube-model';
import { coveringPdbs, pdbsBelowMinimum, pdbStatus } from './fake-pdb-status';
import { FakeWorkloadController } from './fake-workload-controller';

/**
 * A Kubernetes API with state: manifest objects (FakeManifestObjects), the API server (FakeApiServer), nodes, pods owned by
 * Deployments/StatefulSets/DaemonSets, policy/v1 PDBs (fake-pdb-status.ts). Evictions honour PDBs; evicted or deleted pods terminate for their grace period, then their owner
 * recreates them on a schedulable node (StatefulSet pods only in the zone of their volume) and they become
 * Ready `podStartMs` later (fake-workload-controller.ts). Time moves only with the FakeClock; state catches up on every call.
 */
export class FakeKubeCluster extends FakeApiServer implements KubeCluster {
  readonly nodes = new Map<string, FakeNode>();
  readonly pods: FakePod[] = [];
  readonly workloads: FakeWorkload[] = [];
  readonly daemonSets: string[] = [];
  readonly pdbs: FakePdb[] = [];
  /** Every patchNode, in order. */
  readonly patches: { node: string; patch: NodePatch }[] = [];
  /** VolumeAttachments as a test arranges them (the fake's attach-detach controller is the test). */
  readonly volumeAttachments: VolumeAttachmentInfo[] = [];
  /** Times a disruption left a PDB below its minimum. */
  pdbViolations = 0;
  /** Called before every API call (the pool backend boots instances here). */
  beforeCall?: () => void;
  podStartMs = 5_000;
  private seq = 0;
  private readonly controller = new FakeWorkloadController();

  constructor(readonly clock: FakeClock) {
    super();
  }

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

  /** Kinds the fake API server does not serve (servesKind answers false for them). */
  readonly unservedKinds = new Set<string>();

  async servesKind(kind: string): Promise<boolean> {
    return !this.unservedKinds.has(kind);
  }

  async listNodes(): Promise<NodeInfo[]> {
    this.sync();
    this.calls.push('listNodes');
    return [...this.nodes.values()].map((n) => nodeInfo(n, this.pods));
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
          matches(selector, p.labels),
      )
      .map((p) => podInfo(p, this.clock.now()));
  }

  async evictPod(namespace: string, name: string, _gracePeriodSeconds?: number): Promise<EvictionResult> {
    this.sync();
    this.calls.push(`evictPod ${namespace}/${name}`);
    const pod = this.pods.find((p) => p.namespace === namespace && p.name === name);
    if (!pod) return 'not-found';
    if (pod.deletingAt !== undefined) return 'evicted';
    const now = this.clock.now();
    if (isHealthy(pod, now) && coveringPdbs(this.pdbs, pod).some((pdb) => this.status(pdb).disruptionsAllowed < 1))
      return 'blocked-by-pdb';
    pod.deletingAt = now;
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

  async listVolumeAttachments(nodeName?: string): Promise<VolumeAttachmentInfo[]> {
    this.sync();
    this.calls.push(`listVolumeAttachments${nodeName ? ` ${nodeName}` : ''}`);
    return this.volumeAttachments
      .filter((va) => nodeName === undefined || va.nodeName === nodeName)
      .map((va) => ({ ...va }));
  }

  /** A workload's replicas and its healthy pods (Deployments' pods are owned by a ReplicaSet of the same name here). */
  async workloadReadiness(ref: WorkloadRef): Promise<WorkloadReadiness | undefined> {
    this.sync();
    this.calls.push(`workloadReadiness ${ref.kind} ${ref.namespace}/${ref.name}`);
    const workload = this.workloads.find(
      (w) =>
        w.namespace === ref.namespace &&
        w.name === ref.name &&
        (w.kind === 'Deployment' ? 'ReplicaSet' : w.kind) === ref.kind,
    );
    if (!workload) return undefined;
    const now = this.clock.now();
    const ready = this.pods.filter(
      (p) =>
        p.namespace === ref.namespace && p.owner?.kind === ref.kind && p.owner.name === ref.name && isHealthy(p, now),
    ).length;
    return { desired: workload.replicas, ready };
  }

  async scaleDeployment(namespace: string, name: string, replicas: number): Promise<void> {
    this.calls.push(`scaleDeployment ${namespace}/${name}`);
    const workload = this.workloads.find((w) => w.namespace === namespace && w.name === name);
    if (workload) workload.replicas = replicas;
  }

  // ---- observations ----------------------------------------------------------------------------------

  /** PDBs whose healthy pods are below their minimum right now, e.g. "default/web 1<2". */
  pdbsBelowMinimum(): string[] {
    return pdbsBelowMinimum(this.pdbs, this.pods, this.clock.now());
  }

  callCount(prefix: string): number {
    return this.calls.filter((c) => c.startsWith(prefix)).length;
  }

  // ---- internals -----------------------------------------------------------------------------------

  private status(pdb: FakePdb): ReturnType<typeof pdbStatus> {
    return pdbStatus(pdb, this.pods, this.clock.now());
  }

  private checkPdbs(): void {
    this.pdbViolations += this.pdbsBelowMinimum().length;
  }

  private dropPod(pod: FakePod, nodeGone: boolean): void {
    const index = this.pods.indexOf(pod);
    if (index >= 0) this.pods.splice(index, 1);
    if (nodeGone && pod.deletingAt === undefined && isHealthy({ ...pod, deletingAt: undefined }, this.clock.now()))
      this.checkPdbs();
  }

  /** Owners keep their replica count: missing pods are created, pending ones are scheduled. */
  private reconcileWorkloads(): void {
    this.controller.reconcile(this, () => ++this.seq);
  }
}
