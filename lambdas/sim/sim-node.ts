import type { Taint } from '../ports/kube-cluster';

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
  readonly createdAt: number;
  readonly seq: number;
  readonly kubeletVersion?: string; // status.nodeInfo.kubeletVersion: its launch template version's
  /** The kubelet's maxPods when not the default (Karpenter pools: the NodePool's `kubelet.maxPods`). */
  maxPods?: number;
  /** Its bootstrap failed: the node stays NotReady, its Ready condition saying why. */
  readonly notReady?: { readonly reason: string; readonly message: string };
  /** A node incident: its kubelet stopped or its instance is unreachable (ms since the epoch, and which). */
  lost?: { readonly since: number; readonly kind: 'kubelet-stopped' | 'unreachable' };
}
