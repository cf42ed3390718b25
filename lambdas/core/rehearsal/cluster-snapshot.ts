import type { PdbRelease } from './pdb-releases';
import type { KubeObject, PdbInfo, Taint } from '../../ports/kube-cluster';
import type { PoolInstance } from '../../ports/node-pool-backend';
import type { Resources } from '../kube/pod-resources';

/**
 * What a rehearsal knows of a live cluster: read once, through the ports, with reads only (tasks/rehearsal/
 * take-snapshot.ts). Secrets and ConfigMaps are never read; pod templates keep only what scheduling and draining
 * depend on (no env, no command, no image).
 */
export interface ClusterSnapshot {
  readonly clusterId: string;
  /** ms since the epoch (the clock of the ports it was read with). */
  readonly takenAt: number;
  /** The Kubernetes kinds listed, in order: the proof of what was read. */
  readonly kinds: readonly string[];
  readonly nodes: readonly SnapshotNode[];
  readonly pods: readonly SnapshotPod[];
  readonly pdbs: readonly PdbInfo[];
  /** PVCs and where their volumes live (a zone-bound EBS volume pins its pod to that zone). */
  readonly volumes: readonly SnapshotVolume[];
  /**
   * The controllers and bare pods, reduced to what scheduling needs (Deployment, StatefulSet, DaemonSet, ReplicaSets
   * and Pods without a controller), and the PDBs: what the rehearsal's twin runs.
   */
  readonly workloads: readonly KubeObject[];
  readonly pools: readonly SnapshotPool[];
  /** Karpenter NodePools (their spec: limits, disruption budgets), when the cluster serves them. */
  readonly karpenterNodePools: readonly KubeObject[];
  readonly timings: LearnedTimings;
  /** The PDBs that allow no disruption, and how long their blocks lasted in the cluster's last runs (pdb-releases.ts). */
  readonly pdbReleases: readonly PdbRelease[];
  /**
   * The account's On-Demand vCPU quotas of the instance types the pools run or are configured with (absent in
   * snapshots taken before quotas were read).
   */
  readonly quotas?: readonly SnapshotQuota[];
}

/** One On-Demand vCPU quota of the cluster's account as a snapshot read it. */
export interface SnapshotQuota {
  readonly code: string;
  readonly name: string;
  /** The applied limit (vCPUs), when Service Quotas answered. */
  readonly limit?: number;
  /** Why the limit is not known (AccessDenied, no such quota). */
  readonly unknown?: string;
  /** vCPUs the account's pending and running On-Demand instances of the quota hold (all of them, not only the cluster's). */
  readonly inUse?: number;
  /** Of those, the cluster's own: its Auto Scaling pools' instances (else its nodes), by their instance types. */
  readonly cluster: number;
}

export interface SnapshotNode {
  readonly name: string;
  readonly pool?: string;
  readonly zone?: string;
  readonly instanceType?: string;
  readonly ageSeconds: number;
  readonly allocatable?: Resources;
  readonly taints: readonly Taint[];
  readonly labels: Readonly<Record<string, string>>;
  readonly unschedulable: boolean;
  readonly ready: boolean;
}

export interface SnapshotPod {
  readonly namespace: string;
  readonly name: string;
  readonly owner?: { readonly kind: string; readonly name: string };
  readonly nodeName?: string;
  readonly phase: string;
  readonly requests: Resources;
  readonly priority?: number;
  readonly terminationGracePeriodSeconds: number;
  /** PVC names it mounts. */
  readonly claims: readonly string[];
  /** Scheduling constraints the twin's scheduler only approximates (workload-shapes.ts hardConstraints). */
  readonly constraints: readonly string[];
}

export interface SnapshotVolume {
  readonly namespace: string;
  readonly claim: string;
  readonly volume?: string;
  /** The zone its PersistentVolume's node affinity (or zone label) names. */
  readonly zone?: string;
}

export interface SnapshotPool {
  readonly name: string;
  readonly desired: number;
  readonly min: number;
  readonly max: number;
  readonly instances: readonly PoolInstance[];
}

/** Where a figure of the twin's timings came from. */
export type TimingSource = 'history' | 'default';

/** The timings the twin runs with: learned from the cluster's own history where it has some, defaults elsewhere. */
export interface LearnedTimings {
  readonly stackUpdateSeconds: number;
  readonly instanceBootSeconds: number;
  readonly nodeReadySeconds: number;
  readonly podStartSeconds: number;
  /** Grace the pods that do not set one get; pods keep their own terminationGracePeriodSeconds. */
  readonly podTerminationSeconds: number;
  /** Mean termination grace per owner kind (Deployment, StatefulSet, DaemonSet, Pod): the drain of each. */
  readonly drainSecondsByKind: Readonly<Record<string, number>>;
  readonly sources: Readonly<Record<'stackUpdateSeconds' | 'instanceBootSeconds' | 'nodeReadySeconds', TimingSource>>;
}
