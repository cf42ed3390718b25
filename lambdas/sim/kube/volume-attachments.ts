import type { VolumeAttachmentInfo } from '../../ports/kube-cluster';
import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import type { KubeState, SimPod, SimVolumeAttachment } from '../world-state';

/**
 * The attach-detach controller: a pod with volumes bound to a node attaches them there (a VolumeAttachment per volume
 * and node), and `volumeDetachSeconds` after the pod left the node they are detached (the VolumeAttachment goes). A
 * node that vanishes takes its attachments with it.
 */

function attachmentsOf(kube: KubeState): Record<string, SimVolumeAttachment> {
  return (kube.volumeAttachments ??= {});
}

function attachmentName(volume: string, nodeName: string): string {
  return `csi-${hashOf([volume, nodeName], 16)}`;
}

export function pvName(volume: string): string {
  return `pvc-${hashOf([volume], 12)}`;
}

export function attachVolumes(kube: KubeState, pod: SimPod, nodeName: string): void {
  const all = attachmentsOf(kube);
  for (const volume of pod.volumes ?? []) {
    const name = attachmentName(volume, nodeName);
    all[name] = { name, nodeName, volume, persistentVolumeName: pvName(volume) };
  }
}

/** The pod left `nodeName` (terminated or deleted): its volumes detach after `volumeDetachSeconds`. */
export function detachVolumes(ctx: SimContext, kube: KubeState, pod: SimPod, nodeName: string): void {
  const all = attachmentsOf(kube);
  for (const volume of pod.volumes ?? []) {
    const attachment = all[attachmentName(volume, nodeName)];
    if (!attachment || attachment.detaching) continue;
    attachment.detaching = true;
    ctx.schedule(ctx.timings.volumeDetachSeconds ?? 20, {
      type: 'volume-detached',
      cluster: kube.clusterId,
      attachment: attachment.name,
      node: nodeName,
    });
  }
}

/** The volume-detached event: gone, unless a pod on that node uses the volume again. */
export function volumeDetached(kube: KubeState, name: string, nodeName: string): void {
  const all = attachmentsOf(kube);
  const attachment = all[name];
  if (!attachment || attachment.nodeName !== nodeName) return;
  const inUse = Object.values(kube.pods).some(
    (pod) => pod.nodeName === nodeName && pod.deletingAt === undefined && pod.volumes?.includes(attachment.volume),
  );
  if (inUse) attachment.detaching = false;
  else delete all[name];
}

export function dropNodeAttachments(kube: KubeState, nodeName: string): void {
  const all = attachmentsOf(kube);
  for (const [name, attachment] of Object.entries(all)) if (attachment.nodeName === nodeName) delete all[name];
}

export function volumeAttachmentInfos(kube: KubeState, nodeName?: string): VolumeAttachmentInfo[] {
  return Object.values(kube.volumeAttachments ?? {})
    .filter((a) => nodeName === undefined || a.nodeName === nodeName)
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((a) => ({
      name: a.name,
      nodeName: a.nodeName,
      persistentVolumeName: a.persistentVolumeName,
      attached: !a.detaching,
    }));
}
