import type { KubeCluster, KubeObject } from '../../../lambdas/ports/kube-cluster';
import { BackgroundLoop } from './background-loop';

/**
 * What real kubelets and a storage provisioner would do that KWOK (as started by test/integration/kube/start.sh)
 * does not:
 *  - node leases: KWOK 0.7 without `--node-lease-duration-seconds` renews no Lease and patches node status only about
 *    once a minute, longer than the node lifecycle controller's grace period, so nodes flap to NotReady and their pods
 *    lose Ready for good. `LeaseHeartbeat` renews `kube-node-lease/<node>` like a kubelet does.
 *  - volumes: nothing provisions PersistentVolumes; `staticVolumes` creates unclassed ones a StatefulSet's claims bind to.
 */
const FIELD_MANAGER = 'clm-integration-kubelet';

export class LeaseHeartbeat {
  readonly errors: Error[] = [];
  private readonly loop = new BackgroundLoop(() => this.beat(), this.errors);

  constructor(
    private readonly kube: KubeCluster,
    private readonly nodes: () => Promise<string[]>,
    private readonly intervalMs = 5000,
  ) {}

  async beat(): Promise<void> {
    const renewTime = new Date().toISOString().replace(/Z$/, '').padEnd(23, '0').concat('000Z');
    // As a kubelet does, each Lease is owned by its Node, so the garbage collector removes it with the Node.
    const uids = new Map((await this.kube.list('Node')).map((n) => [n.metadata.name, n.metadata.uid]));
    const leases: KubeObject[] = (await this.nodes()).flatMap((name) => {
      const uid = uids.get(name);
      if (typeof uid !== 'string') return [];
      const owner = { apiVersion: 'v1', kind: 'Node', name, uid };
      return [
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name, namespace: 'kube-node-lease', ownerReferences: [owner] },
          spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime },
        },
      ];
    });
    if (leases.length > 0) await this.kube.apply(leases, { fieldManager: FIELD_MANAGER });
  }

  start(): void {
    this.loop.start(this.intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}

/** `count` unclassed ReadWriteOnce PersistentVolumes of `size` (hostPath: KWOK never mounts anything). */
export async function staticVolumes(kube: KubeCluster, prefix: string, count: number, size = '10Gi'): Promise<void> {
  const volumes: KubeObject[] = Array.from({ length: count }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `${prefix}-${i}` },
    spec: {
      capacity: { storage: size },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Delete',
      hostPath: { path: `/tmp/${prefix}-${i}` },
    },
  }));
  await kube.apply(volumes, { fieldManager: FIELD_MANAGER });
}
