import type { KubeObject } from '../../ports/kube-cluster';
import type { SimContext } from '../sim-context';
import type { KubeState } from '../world-state';
import { pvName } from './volume-attachments';

/**
 * The PersistentVolumeClaims of the StatefulSets' volume claim templates and the EBS-backed PersistentVolumes bound to
 * them, as `list` shows them: a claim `<claim>-<pod>` Bound to its volume, the volume's node affinity naming the zone
 * it was made in (the zone its first pod ran in). Made from the world's volumes, not stored.
 */
function parts(key: string): { namespace: string; claim: string } {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), claim: key.slice(slash + 1) };
}

export function claimObjects(ctx: SimContext, kube: KubeState, namespace?: string): KubeObject[] {
  return Object.keys(kube.volumes)
    .sort()
    .map(parts)
    .filter((p) => !namespace || p.namespace === namespace)
    .map(({ namespace: ns, claim }) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: claim, namespace: ns, creationTimestamp: ctx.iso(ctx.state.startTime) },
      spec: { accessModes: ['ReadWriteOnce'], volumeName: pvName(`${ns}/${claim}`), storageClassName: 'ebs' },
      status: { phase: 'Bound' },
    }));
}

export function volumeObjects(ctx: SimContext, kube: KubeState): KubeObject[] {
  return Object.entries(kube.volumes)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, zone]) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name: pvName(key),
        labels: { 'topology.kubernetes.io/zone': zone },
        creationTimestamp: ctx.iso(ctx.state.startTime),
      },
      spec: {
        claimRef: { namespace: parts(key).namespace, name: parts(key).claim },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'topology.ebs.csi.aws.com/zone', operator: 'In', values: [zone] }] },
            ],
          },
        },
      },
      status: { phase: 'Bound' },
    }));
}
