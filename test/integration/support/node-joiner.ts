import { DescribeAutoScalingGroupsCommand, type AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import type { AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import type { KubeCluster, KubeObject } from '../../../lambdas/ports/kube-cluster';
import { BackgroundLoop } from './background-loop';

/**
 * Joins the two worlds: every moto instance of the cluster's Auto Scaling groups becomes a KWOK node (KWOK plays its
 * kubelet: Ready status, pods Running), and the node of an instance that left its group goes away — what a kubelet
 * registering at boot and the cloud controller removing terminated instances do on AWS.
 *
 * Node: name `ip-<instance id>`, `spec.providerID=aws:///<az>/<instance-id>`, the pool's labels from the ASG tags
 * (`node.kubernetes.io/*`), the zone labels, and `type=kwok` + the `kwok.x-k8s.io/node: fake` annotation that
 * test/integration/kube/start.sh's KWOK selects. Masters get the usual control-plane taint.
 */
export const KWOK_LABEL = { type: 'kwok' } as const;
const FIELD_MANAGER = 'clm-integration-node-joiner';
const JOINER_LABEL = 'clm-integration/joined';

export interface SyncResult {
  readonly joined: string[];
  readonly removed: string[];
}

export class NodeJoiner {
  /** Each sync's outcome, for tests that count them; errors are kept, not thrown from the background loop. */
  readonly errors: Error[] = [];
  private readonly loop = new BackgroundLoop(() => this.sync(), this.errors);

  constructor(
    private readonly clients: Pick<AwsClients, 'autoScaling'>,
    private readonly kube: KubeCluster,
    /** Tag every group of the cluster carries, e.g. `kubernetes.io/cluster/<id>`. */
    private readonly clusterTag: string,
  ) {}

  /** One pass: create missing nodes, delete nodes whose instance is gone. */
  async sync(): Promise<SyncResult> {
    const wanted = new Map<string, KubeObject>();
    for (const group of await this.groups()) {
      const tags = Object.fromEntries((group.Tags ?? []).map((t) => [t.Key!, t.Value ?? '']));
      for (const instance of group.Instances ?? []) {
        if (!instance.InstanceId || !['Pending', 'InService'].includes(instance.LifecycleState ?? '')) continue;
        const node = nodeFor(instance.InstanceId, instance.AvailabilityZone ?? 'eu-central-1a', tags);
        wanted.set(node.metadata.name, node);
      }
    }
    const existing = (await this.kube.listNodes()).filter((n) => n.labels[JOINER_LABEL] === 'true');
    const have = new Set(existing.map((n) => n.name));
    const missing = [...wanted.values()].filter((n) => !have.has(n.metadata.name));
    if (missing.length > 0) await this.kube.apply(missing, { fieldManager: FIELD_MANAGER });
    const removed: string[] = [];
    for (const node of existing) {
      if (wanted.has(node.name)) continue;
      await this.kube.delete({ kind: 'Node', name: node.name });
      removed.push(node.name);
    }
    return { joined: missing.map((n) => n.metadata.name), removed };
  }

  /** Sync every `intervalMs` in the background until stop(). */
  start(intervalMs = 500): void {
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async groups(): Promise<AutoScalingGroup[]> {
    const groups: AutoScalingGroup[] = [];
    let NextToken: string | undefined;
    do {
      const page = await this.clients.autoScaling.send(
        new DescribeAutoScalingGroupsCommand({
          Filters: [{ Name: 'tag-key', Values: [this.clusterTag] }],
          ...(NextToken ? { NextToken } : {}),
        }),
      );
      groups.push(...(page.AutoScalingGroups ?? []));
      NextToken = page.NextToken;
    } while (NextToken);
    return groups;
  }
}

export function nodeNameFor(instanceId: string): string {
  return `ip-${instanceId.toLowerCase()}`;
}

function nodeFor(instanceId: string, zone: string, tags: Record<string, string>): KubeObject {
  const poolLabels = Object.fromEntries(Object.entries(tags).filter(([key]) => key.startsWith('node.kubernetes.io/')));
  const master = poolLabels['node.kubernetes.io/role'] === 'master';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: nodeNameFor(instanceId),
      labels: {
        ...poolLabels,
        ...KWOK_LABEL,
        [JOINER_LABEL]: 'true',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': nodeNameFor(instanceId),
        'topology.kubernetes.io/region': zone.slice(0, -1),
        'topology.kubernetes.io/zone': zone,
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: {
      providerID: `aws:///${zone}/${instanceId}`,
      ...(master ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {}),
    },
  };
}
