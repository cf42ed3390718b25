import type { VolumeAttachmentInfo } from '../../ports/kube-cluster';

/**
 * Volume detach wait (as Karpenter and Cluster API do): a drained node is terminated only once no VolumeAttachment
 * (storage.k8s.io/v1) names it, so a StatefulSet pod's volume can attach on its new node; after the pool's
 * `update_volume_detach_timeout` the node is terminated anyway and a problem is recorded. Pure.
 */
export type DetachVerdict =
  | { readonly kind: 'detached' }
  | { readonly kind: 'wait'; readonly since: number; readonly blocked: string }
  | { readonly kind: 'timeout'; readonly detail: string };

export function attachmentsOf(attachments: readonly VolumeAttachmentInfo[], nodeName: string): VolumeAttachmentInfo[] {
  return attachments.filter((a) => a.nodeName === nodeName);
}

export function detachVerdict(
  nodeName: string,
  attached: readonly VolumeAttachmentInfo[],
  since: number | undefined,
  timeoutMs: number,
  now: number,
): DetachVerdict {
  if (attached.length === 0) return { kind: 'detached' };
  const start = since ?? now;
  const volumes = attached.map((a) => a.persistentVolumeName ?? a.name).join(', ');
  const waited = Math.round((now - start) / 1000);
  if (now - start > timeoutMs)
    return {
      kind: 'timeout',
      detail: `node ${nodeName} terminated with volume(s) ${volumes} still attached after ${waited}s (update_volume_detach_timeout ${Math.round(timeoutMs / 1000)}s)`,
    };
  return {
    kind: 'wait',
    since: start,
    blocked: `${attached.length} volume attachment(s) on node ${nodeName} to go (${volumes}; waiting ${waited}s of ${Math.round(timeoutMs / 1000)}s)`,
  };
}
