import type { Taint } from '../ports/kube-cluster';
import type { Resources } from '../core/kube/pod-resources';

export interface SimNode {
  readonly name: string;
  readonly instanceId: string;
  readonly providerId: string;
  readonly zone: string;
  readonly pool: string;
  readonly role: 'master' | 'worker';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  taints: Taint[];
  unschedulable: boolean;
  ready: boolean;
  /** When it last turned Ready (its Ready condition's lastTransitionTime); absent in worlds saved before. */
  readyAt?: number;
  readonly createdAt: number;
  readonly seq: number;
  readonly kubeletVersion?: string; // status.nodeInfo.kubeletVersion: its launch template version's
  /** The kubelet's maxPods when not the default (Karpenter pools: the NodePool's `kubelet.maxPods`). */
  maxPods?: number;
  /** status.allocatable from its instance type (kube/node-capacity.ts); absent: pods are counted, not sized. */
  readonly allocatable?: Resources;
  /** Its bootstrap failed: the node stays NotReady, its Ready condition saying why. */
  readonly notReady?: { readonly reason: string; readonly message: string };
  /** A node incident: its kubelet stopped or its instance is unreachable (ms since the epoch, and which). */
  lost?: { readonly since: number; readonly kind: 'kubelet-stopped' | 'unreachable' };
}
