import { DescribeAutoScalingGroupsCommand, type AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import type { AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { BOOTSTRAP_FAILED_REASON, type BootResult } from '../../../lambdas/core/nodes/node-bootstrap';
import type { KubeCluster, KubeObject } from '../../../lambdas/ports/kube-cluster';
import { bootstrapInstance, type BootstrapClients } from './aws-node-bootstrap';
import { BackgroundLoop } from './background-loop';
import type { NodeConditions } from './node-conditions';

/**
 * Joins the two worlds: every moto instance of the cluster's Auto Scaling groups becomes a KWOK node (KWOK plays its
 * kubelet: Ready status, pods Running), and the node of an instance that left its group goes away — what a kubelet
 * registering at boot and the cloud controller removing terminated instances do on AWS.
 *
 * With `bootstrap`, an instance first runs a CLM node's bootstrap as its role (aws-node-bootstrap.ts: its files bundle
 * fetched from S3 and its secrets decrypted with KMS, allowed only as the account's policies allow): only a node that
 * managed becomes a KWOK node. One that did not registers without KWOK (no kubelet makes it Ready) and reports
 * `Ready=False` with reason `FilesBundleUnavailable` and what failed, as the simulator's nodes do. Each instance boots
 * once; `boots` keeps the outcomes.
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

/** What booting an instance takes: the clients the bootstrap check uses, and the writer of a failed node's status. */
export interface JoinerBootstrap {
  readonly clients: BootstrapClients;
  readonly conditions: NodeConditions;
}

export class NodeJoiner {
  /** Each sync's outcome, for tests that count them; errors are kept, not thrown from the background loop. */
  readonly errors: Error[] = [];
  /** Instance id → how its bootstrap went (with `bootstrap` only). */
  readonly boots = new Map<string, BootResult>();
  private readonly loop = new BackgroundLoop(() => this.sync(), this.errors);

  constructor(
    private readonly clients: Pick<AwsClients, 'autoScaling' | 'ec2'>,
    private readonly kube: KubeCluster,
    /** Tag every group of the cluster carries, e.g. `kubernetes.io/cluster/<id>`. */
    private readonly clusterTag: string,
    private readonly bootstrap?: JoinerBootstrap,
  ) {}

  /** One pass: create missing nodes (after their bootstrap), delete nodes whose instance is gone. */
  async sync(): Promise<SyncResult> {
    const wanted = new Map<string, KubeObject>();
    const failed = new Map<string, string>();
    for (const group of await this.groups()) {
      const tags = Object.fromEntries((group.Tags ?? []).map((t) => [t.Key!, t.Value ?? '']));
      for (const instance of group.Instances ?? []) {
        if (!instance.InstanceId || !['Pending', 'InService'].includes(instance.LifecycleState ?? '')) continue;
        const boot = await this.boot(instance.InstanceId);
        const node = nodeFor(
          instance.InstanceId,
          instance.AvailabilityZone ?? 'eu-central-1a',
          tags,
          boot?.ok !== false,
        );
        wanted.set(node.metadata.name, node);
        if (boot && !boot.ok) failed.set(node.metadata.name, boot.reason);
      }
    }
    const existing = (await this.kube.listNodes()).filter((n) => n.labels[JOINER_LABEL] === 'true');
    const have = new Set(existing.map((n) => n.name));
    const missing = [...wanted.values()].filter((n) => !have.has(n.metadata.name));
    if (missing.length > 0) await this.kube.apply(missing, { fieldManager: FIELD_MANAGER });
    // A node whose boot failed keeps saying so (a kubelet posting its status).
    for (const [name, reason] of failed)
      await this.bootstrap!.conditions.notReady(name, BOOTSTRAP_FAILED_REASON, reason);
    const removed: string[] = [];
    for (const node of existing) {
      if (wanted.has(node.name)) continue;
      await this.kube.delete({ kind: 'Node', name: node.name });
      removed.push(node.name);
    }
    return { joined: missing.map((n) => n.metadata.name), removed };
  }

  private async boot(instanceId: string): Promise<BootResult | undefined> {
    if (!this.bootstrap) return undefined;
    let boot = this.boots.get(instanceId);
    if (!boot) {
      // A check that cannot run is a failed boot whose reason says so (visible on the node), never a stopped joiner.
      boot = await bootstrapInstance(this.clients.ec2, this.bootstrap.clients, instanceId).catch(
        (error: unknown): BootResult => ({ ok: false, reason: `the bootstrap check could not run: ${String(error)}` }),
      );
      this.boots.set(instanceId, boot);
    }
    return boot;
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

/** The Node a kubelet registers; `kwok`: KWOK plays its kubelet (a node whose bootstrap failed has none that works). */
function nodeFor(instanceId: string, zone: string, tags: Record<string, string>, kwok: boolean): KubeObject {
  const poolLabels = Object.fromEntries(Object.entries(tags).filter(([key]) => key.startsWith('node.kubernetes.io/')));
  const master = poolLabels['node.kubernetes.io/role'] === 'master';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: nodeNameFor(instanceId),
      labels: {
        ...poolLabels,
        ...(kwok ? KWOK_LABEL : {}),
        [JOINER_LABEL]: 'true',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': nodeNameFor(instanceId),
        'topology.kubernetes.io/region': zone.slice(0, -1),
        'topology.kubernetes.io/zone': zone,
      },
      annotations: { ...(kwok ? { 'kwok.x-k8s.io/node': 'fake' } : {}), 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: {
      providerID: `aws:///${zone}/${instanceId}`,
      ...(master ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {}),
    },
  };
}
