/** A Kubernetes object as YAML/JSON: apiVersion, kind and metadata.name are required (CLM §4.5). */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly ownerReferences?: readonly { readonly kind: string; readonly name: string; readonly uid?: string }[];
    readonly uid?: string;
    readonly creationTimestamp?: string;
    readonly [key: string]: unknown;
  };
  readonly [key: string]: unknown;
}

export interface ObjectRef {
  readonly apiVersion?: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** A field an apply changed (or, in a dry run, would change), in core/manifests/field-paths.ts notation. */
export interface FieldChange {
  /** `spec.replicas`, `spec.template.spec.containers[name=web].image`. */
  readonly path: string;
  /** Another field manager that owned the field in the live object (e.g. `kubectl-edit`), when one did. */
  readonly manager?: string;
}

export interface ApplyResult {
  readonly ref: ObjectRef;
  readonly action: 'created' | 'configured' | 'unchanged';
  /** `configured`: the fields that changed, with who owned them before (drift detection reads these). */
  readonly changes?: readonly FieldChange[];
}

export interface DeleteOptions {
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly gracePeriodSeconds?: number;
}

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface NodeInfo {
  readonly name: string;
  /** `aws:///<az>/<instance-id>` */
  readonly providerId: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly unschedulable: boolean;
  readonly ready: boolean;
  /**
   * Why it is not Ready, when its Ready condition says (`<reason>: <message>`, e.g. a node whose bootstrap could not
   * fetch its files bundle); absent when Ready or when the condition gives no reason.
   */
  readonly notReadyReason?: string;
  /**
   * Since when it is not Ready (the Ready condition's lastTransitionTime, ISO 8601): node repair's clock. Absent when
   * Ready or when the condition does not say.
   */
  readonly notReadySince?: string;
  /** status.volumesAttached is non-empty (CLM's stateful signal). */
  readonly volumesAttached: boolean;
  readonly zone?: string;
  readonly createdAt: string;
  /** status.nodeInfo.kubeletVersion, `v1.30.5` (vendor suffixes such as `-eks-…` kept); absent when not reported. */
  readonly kubeletVersion?: string;
}

export interface NodePatch {
  readonly unschedulable?: boolean;
  /** null removes a key. */
  readonly labels?: Readonly<Record<string, string | null>>;
  readonly annotations?: Readonly<Record<string, string | null>>;
  /** Replaces the node's taints with exactly this list. */
  readonly taints?: readonly Taint[];
}

export interface PodInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly nodeName?: string;
  readonly phase: string;
  readonly ready: boolean;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** First owner reference, e.g. { kind: 'ReplicaSet', name: 'web-7d9f' }. */
  readonly owner?: { readonly kind: string; readonly name: string };
  readonly createdAt: string;
  readonly terminationGracePeriodSeconds: number;
  readonly deleting: boolean;
  /** Being deleted: when its grace ends and the kubelet kills it (`metadata.deletionTimestamp`). */
  readonly deletesBy?: string;
}

export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly {
    readonly key: string;
    readonly operator: string;
    readonly values?: readonly string[];
  }[];
}

export interface PdbInfo {
  readonly namespace: string;
  readonly name: string;
  readonly selector: LabelSelector;
  readonly minAvailable?: number | string;
  readonly maxUnavailable?: number | string;
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expectedPods: number;
}

export type EvictionResult = 'evicted' | 'blocked-by-pdb' | 'not-found';

/** A storage.k8s.io/v1 VolumeAttachment: a volume attached (or being detached) to a node. */
export interface VolumeAttachmentInfo {
  readonly name: string;
  readonly nodeName: string;
  readonly persistentVolumeName?: string;
  readonly attached: boolean;
}

/** A pod's controlling owner (ReplicaSet, StatefulSet, ...). */
export interface WorkloadRef {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** Replicas an owner wants and how many of its pods are running and Ready (not terminating). */
export interface WorkloadReadiness {
  readonly desired: number;
  readonly ready: number;
}

/** One Kubernetes cluster's API, in the words the core needs. */
export interface KubeCluster {
  /** GET /readyz answered ok. */
  ready(): Promise<boolean>;
  /** GET /version: the API server's `gitVersion`, `v1.30.5` (vendor suffixes kept). */
  serverVersion(): Promise<string>;
  /** Server-side apply with a field manager; CRDs and Namespaces are the caller's job to order. */
  apply(
    objects: readonly KubeObject[],
    options: { readonly fieldManager: string; readonly dryRun?: boolean },
  ): Promise<ApplyResult[]>;
  /** `kind` may be Kind, singular, plural (any case) or `resource.version.group`. Not found is `not-found`. */
  delete(ref: ObjectRef, options?: DeleteOptions): Promise<'deleted' | 'not-found'>;
  /** Whether the API server serves `kind` (Kind, singular, plural or `resource.version.group`), by its discovery. */
  servesKind(kind: string, apiVersion?: string): Promise<boolean>;
  /** List by kind (same resolution as delete); no namespace = all namespaces. */
  list(kind: string, options?: { readonly namespace?: string; readonly labelSelector?: string }): Promise<KubeObject[]>;
  /** Annotate an object (used for namespace deletion protection annotations). */
  annotate(ref: ObjectRef, annotations: Readonly<Record<string, string>>): Promise<void>;
  listNodes(): Promise<NodeInfo[]>;
  patchNode(name: string, patch: NodePatch): Promise<void>;
  listPods(options?: {
    readonly nodeName?: string;
    readonly namespace?: string;
    readonly labelSelector?: string;
  }): Promise<PodInfo[]>;
  /** policy/v1 Eviction; a 429 (PDB) is `blocked-by-pdb`, not an error. */
  evictPod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<EvictionResult>;
  /** Plain DELETE, bypassing PDBs (CLM's forced drain). */
  deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<'deleted' | 'not-found'>;
  listPdbs(namespace?: string): Promise<PdbInfo[]>;
  /** VolumeAttachments (storage.k8s.io/v1), all or those naming `nodeName`. */
  listVolumeAttachments(nodeName?: string): Promise<VolumeAttachmentInfo[]>;
  /** A ReplicaSet's, StatefulSet's (or Deployment's) wanted and ready replicas; undefined when it is gone. */
  workloadReadiness(ref: WorkloadRef): Promise<WorkloadReadiness | undefined>;
  /** Scale a Deployment (decommission scales kube-system to 0). */
  scaleDeployment(namespace: string, name: string, replicas: number): Promise<void>;
}
