import type { StackEvent } from '../core/stacks/stack-events';
import type { CfnTemplate } from '../core/cloudformation/cfn-yaml';
import type { Scenario } from './scenario';
import type { SimNode } from './sim-node';
import type { KubeletRegistration } from '../core/nodes/kubelet-registration';
import type { BucketRecord, ObjectRecord } from './aws/s3-state';
import type { ScalingActivityRecord } from './aws/scaling-activities';
import type { Resources } from '../core/kube/pod-resources';
import type { CloudResourceRecord } from './aws/cloud-resource-state';
import type { KindInfo, StoredObject } from './kube/stored-object';

export type { BucketRecord, ObjectRecord } from './aws/s3-state';
export type { CloudResourceRecord, SimNode };
export type { KindInfo, StoredObject };

/** The simulated world as plain JSON (saved and loaded as is, so a reload continues); times are virtual ms. */
export interface WorldState {
  readonly format: 1;
  now: number;
  readonly startTime: number;
  rng: number; // PRNG state (see prng.ts)
  /** Tie-breaker for events scheduled at the same time, and creation order of objects. */
  seq: number;
  readonly scenario: Scenario;
  /** The file the scenario was read from (`--scenario`), when it came from one. */
  readonly scenarioFile?: string;
  /** Pending events, sorted by (at, seq). */
  events: SimEvent[];
  /** Clusters seen through `forCluster`, by id. */
  clusters: Record<string, ClusterInfo>;
  /** `<account id>/<region>` → the simulated account. */
  accounts: Record<string, AccountState>;
  /** Cluster id → its Kubernetes API. */
  kube: Record<string, KubeState>;
  apiCalls: Record<string, number>;
  /** Remaining counts of the scenario's faults, by index. */
  faultUses: { apiErrors: FaultUse[]; stackFailures: number[] };
  invariants: { pdbViolations: number; nodesTerminatedTwice: number; details: string[] };
  nodeIncidentsDone?: number[]; // indexes of the scenario's nodeIncidents that happened (kube/node-incidents.ts)
}

export interface FaultUse {
  seen: number;
  thrown: number;
}

export type SimEvent =
  | { type: 'stack-done'; at: number; seq: number; account: string; stack: string; token: number }
  | { type: 'instance-boot'; at: number; seq: number; account: string; instanceId: string }
  | { type: 'instance-gone'; at: number; seq: number; account: string; instanceId: string }
  | { type: 'node-ready'; at: number; seq: number; cluster: string; node: string; instanceId: string }
  | { type: 'pod-ready'; at: number; seq: number; cluster: string; pod: string; uid: string }
  | { type: 'pod-gone'; at: number; seq: number; cluster: string; pod: string; uid: string }
  | { type: 'volume-detached'; at: number; seq: number; cluster: string; attachment: string; node: string }
  | { type: 'asg-retry'; at: number; seq: number; account: string; asg: string; cluster: string }
  | { type: 'karpenter-retry'; at: number; seq: number; cluster: string }
  | { type: 'live-edit'; at: number; seq: number; cluster: string; index: number };

export type SimEventInput = SimEvent extends infer E ? (E extends SimEvent ? Omit<E, 'at' | 'seq'> : never) : never;

export interface ClusterInfo {
  readonly id: string;
  /** CLM `Name()`: the id, or the alias for zalando-eks; used in the `kubernetes.io/cluster/<name>` tag. */
  readonly name: string;
  readonly accountId: string;
  readonly region: string;
  readonly localId: string;
  readonly apiServerUrl: string;
  /** Master pool names; none (EKS) means the API is ready once the main stack exists. */
  readonly masterPools: readonly string[];
  /** zalando-eks: the API server is the EKS cluster named `name` (aws/eks.ts); nodes join it, the VPC CNI runs. */
  readonly eks?: boolean;
  /** Lifecycle decommission-requested/decommissioned: tearing down loses pods on purpose, PDBs are not counted. */
  readonly decommissioning?: boolean;
  /** The scenario's `leftovers` were created in the account (once, on the first call for the cluster). */
  readonly leftoversSeeded?: boolean;
}

// ---------------------------------------------------------------- AWS

export interface AccountState {
  readonly key: string;
  readonly accountId: string;
  readonly region: string;
  readonly vpc: { readonly id: string; readonly cidr: string };
  readonly subnets: readonly SubnetState[];
  stacks: Record<string, StackRecord>;
  launchTemplates: Record<string, LaunchTemplateRecord>;
  asgs: Record<string, AsgRecord>;
  instances: Record<string, InstanceRecord>;
  exports: Record<string, { value: string; stack: string }>;
  /**
   * What Kubernetes made outside CloudFormation (load balancers, their security groups, volumes, interfaces), by id;
   * absent in worlds saved before it existed.
   */
  cloudResources?: Record<string, CloudResourceRecord>;
  /** S3 buckets made outside CloudFormation (CLM's files bucket), by name; absent in worlds saved before. */
  buckets?: Record<string, BucketRecord>;
  /** S3 objects of the account's buckets by `<bucket>/<key>` (the nodes' files bundles); absent in worlds saved before. */
  objects?: Record<string, ObjectRecord>;
  /** Private IPs handed out per AZ index. */
  ipCounters: number[];
}

export type SubnetRole = 'node' | 'elb' | 'internal-node';

export interface SubnetState {
  readonly id: string;
  readonly az: string;
  readonly role: SubnetRole;
  readonly cidr: string;
}

export interface ResourceRecord {
  readonly type: string;
  readonly physicalId: string;
  readonly attributes: Record<string, string | number>;
  /** Hash of the raw template definition, for plan (Modify when it differs). */
  readonly defHash: string;
  /** Hash of the evaluated properties, to know whether an update changes anything. */
  readonly propsHash: string;
  /** Evaluated properties the simulator models (IAM, KMS, S3: aws/access-model.ts; EKS: aws/cfn-eks-cluster.ts). */
  readonly model?: Record<string, unknown>;
}

export interface StackRecord {
  readonly name: string;
  readonly stackId: string;
  /** The cluster whose ports deployed it: its resources belong to that cluster's shard (world-shards.ts). */
  cluster?: string;
  status: string;
  reason?: string;
  tags: Record<string, string>;
  terminationProtection: boolean;
  /** Hash of the template body + tags CloudFormation last accepted (for NO_CHANGES). */
  templateHash: string;
  resources: Record<string, ResourceRecord>;
  outputs: Record<string, string>;
  lastUpdatedTime: number;
  /** Bumped on each operation; a stack-done event carries it so stale events are ignored. */
  token: number;
  /** The operation in progress. */
  pending?: PendingOperation;
  /** DescribeStackEvents, oldest first, the last MAX_STACK_EVENTS (aws/stack-events.ts). */
  events?: StackEvent[];
  /** UPDATE_ROLLBACK_FAILED: the resource whose rollback fails, and how many more continues fail on it. */
  rollbackFailure?: { readonly logicalId: string; readonly reason: string; left: number };
}

export interface PendingOperation {
  readonly operation: 'create' | 'update' | 'delete' | 'continue-rollback';
  readonly template?: CfnTemplate;
  readonly templateHash?: string;
  readonly tags?: Record<string, string>;
  /** Set when a scenario fault makes this operation fail. */
  readonly failReason?: string;
  /** The resource that fails (with failReason). */
  readonly failResource?: string;
  readonly rollbackFailures?: number; // the fault also makes the rollback fail, this many times
  readonly rollbackReason?: string;
  /** continue-rollback: the resources to skip. */
  readonly skip?: readonly string[];
}

/** What user data gives a node's boot: the files bundles it fetches, the labels and taints its kubelet starts with. */
interface UserDataBoot {
  readonly bundles?: readonly { readonly bucket: string; readonly key: string }[]; // s3://<bucket>/<key>.userdata
  readonly registration?: KubeletRegistration; // core/nodes/kubelet-registration.ts, when its user data sets them
}

export interface LaunchTemplateVersion extends UserDataBoot {
  readonly number: number;
  readonly dataHash: string;
  readonly instanceType?: string;
  readonly spot: boolean;
  readonly kubeletVersion?: string; // its user data's KUBERNETES_VERSION= (the kubelet it starts), when it names one
  /** `IamInstanceProfile` of the launch template data (a name or an ARN). */
  readonly instanceProfile?: string;
}

export interface LaunchTemplateRecord {
  readonly id: string;
  readonly name: string;
  versions: LaunchTemplateVersion[];
  defaultVersion: number;
}

export interface AsgRecord {
  readonly name: string;
  readonly stack: string;
  min: number;
  max: number;
  desired: number;
  launchTemplate?: { id: string; version: string };
  /** MixedInstancesPolicy: allowed instance types and the on-demand percentage above base. */
  mixed?: { instanceTypes: string[]; onDemandPercentage: number };
  azs: string[];
  tags: Record<string, { value: string; propagate: boolean }>;
  readonly createdAt: number;
  /** When the group tries launches EC2 throttled again (aws/run-instances-bucket.ts). */
  launchRetryAt?: number;
  /** Its latest scaling activities, newest last (aws/scaling-activities.ts); absent in worlds saved before. */
  activities?: ScalingActivityRecord[];
}

export type InstanceLifecycle = 'Pending' | 'InService' | 'Terminating' | 'Terminated';

export interface InstanceRecord extends UserDataBoot {
  readonly id: string;
  readonly asg: string;
  /** The cluster of the stack that made its ASG (kept after the ASG is gone). */
  readonly cluster?: string;
  readonly az: string;
  state: InstanceLifecycle;
  readonly launchTemplateId?: string;
  readonly launchTemplateVersion?: string;
  readonly instanceType: string;
  readonly spot: boolean;
  readonly privateIp: string;
  readonly launchedAt: number;
  readonly seq: number;
  readonly tags: Record<string, string>;
  /** The instance profile it was launched with (a name or an ARN). */
  readonly instanceProfile?: string;
  /** Karpenter instances of an EC2NodeClass naming a role (Karpenter makes its instance profile): that role. */
  readonly role?: string;
  /** How its bootstrap went (set when it came up): a failed one leaves its node NotReady with the reason. */
  bootstrap?: { readonly ok: boolean; readonly detail: string };
}

// ---------------------------------------------------------------- Kubernetes

export interface KubeState {
  readonly clusterId: string;
  /** Stored objects by `objectKey()` (everything but pods and nodes). */
  objects: Record<string, StoredObject>;
  /** By `<namespace>/<name>`. */
  pods: Record<string, SimPod>;
  /** By node name. */
  nodes: Record<string, SimNode>;
  /** Kinds added by CRDs, by lower-case kind. */
  customKinds: Record<string, KindInfo>;
  /** PVC `<namespace>/<claim>-<pod>` → the zone its volume lives in. */
  volumes: Record<string, string>;
  /** storage.k8s.io/v1 VolumeAttachments by name (absent in worlds saved before they were modelled). */
  volumeAttachments?: Record<string, SimVolumeAttachment>;
}

/** A volume attached to a node: made when a pod with volumes is bound, gone `volumeDetachSeconds` after it leaves. */
export interface SimVolumeAttachment {
  readonly name: string;
  readonly nodeName: string;
  /** The PVC key (`<namespace>/<claim>-<pod>`). */
  readonly volume: string;
  readonly persistentVolumeName: string;
  /** Set when the pod left: the detach is under way. */
  detaching?: boolean;
}

export interface PodOwner {
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
}

export interface SimPod {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  owner?: PodOwner;
  nodeName?: string;
  phase: 'Pending' | 'Running';
  ready: boolean;
  readonly createdAt: number;
  /** Deletion timestamp: the pod is Terminating. */
  deletingAt?: number;
  /** Being deleted: when its grace ends and it goes (the API's deletionTimestamp). */
  goneBy?: number;
  readonly grace: number;
  readonly nodeSelector?: Record<string, string>;
  readonly tolerations?: readonly TolerationSpec[];
  /** The spec's affinity and topologySpreadConstraints as applied (the scheduler keeps their required parts). */
  readonly affinity?: unknown;
  readonly topologySpreadConstraints?: unknown;
  /** PVC keys (`<namespace>/<claim>-<pod>`) whose zone pins this pod. */
  readonly volumes?: readonly string[];
  readonly requests?: Resources; // the CPU and memory its containers request
  readonly neverReady?: boolean;
  /** Hash of the manifest a field manager applied (pods created by `apply`). */
  appliedHash?: string;
  readonly seq: number;
}

export type TolerationSpec = Readonly<Partial<Record<'key' | 'operator' | 'value' | 'effect', string>>>;
