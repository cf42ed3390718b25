/**
 * NodePoolBackend on Auto Scaling groups (CLM `ASGNodePoolsBackend`, reference/clm-behaviour.md §7.1, §7.4).
 * A pool's ASGs carry the tags `kubernetes.io/cluster/<cluster name>=owned` and `NodePool=<pool>` (CloudFormation
 * propagates them from the node-pool stack); split-AZ pools have one ASG per zone.
 *
 * AWS calls: getPool = DescribeAutoScalingGroups (per page) + DescribeLaunchTemplateVersions (per distinct template
 * version whose facts are needed, cached within the call) + DescribeInstances (per 200 instances: spot-ness, type and
 * the `aws:ec2launchtemplate:*` launch tags) + DescribeScalingActivities (a group short of its size); scale = Describe-
 * AutoScalingGroups + one UpdateAutoScalingGroup per changed group; terminate = DescribeAutoScalingInstances + Describe-
 * AutoScalingGroups (ownership check) + TerminateInstanceInAutoScalingGroup (+ one UpdateAutoScalingGroup when MinSize
 * must drop first); the roll's marks: asg-pre-roll-size.ts.
 */
import {
  DeleteTagsCommand,
  DescribeAutoScalingGroupsCommand,
  DescribeAutoScalingInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
  UpdateAutoScalingGroupCommand,
  paginateDescribeAutoScalingGroups,
} from '@aws-sdk/client-auto-scaling';
import type { AutoScalingClient, AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import { DescribeLaunchTemplateVersionsCommand, paginateDescribeInstances } from './ec2-api';
import type { EC2Client } from '@aws-sdk/client-ec2';
import type {
  ClusterRef,
  KarpenterInstance,
  NodePoolBackend,
  PoolInstance,
  PoolState,
} from '../../ports/node-pool-backend';
import { NotFoundError, RolloutError, ValidationError } from '../../shared/errors';
import { awsErrorMessage, awsErrorName, toClmError } from './aws-errors';
import {
  currentTemplate,
  distributeDesired,
  generationOf,
  isOutdated,
  launchedFrom,
  needsTemplateFacts,
} from './asg-generation';
import type { InstanceFacts, TemplateFacts, TemplateRef } from './asg-generation';
import { describeKarpenterInstances, terminateKarpenterInstances } from './ec2-karpenter-instances';
import { markPreRollSize, preRollOf, restorePreRollSize, sizeOf } from './asg-pre-roll-size';
import { launchFailureOf } from './asg-launch-failures';

export const CLUSTER_AUTOSCALER_TAG = 'k8s.io/cluster-autoscaler/enabled';
/** EC2 accepts at most 200 values per filter. */
const INSTANCE_BATCH = 200;

export function clusterOwnershipTag(cluster: Pick<ClusterRef, 'name'>): string {
  return `kubernetes.io/cluster/${cluster.name}`;
}

export class AsgNodePoolBackend implements NodePoolBackend {
  constructor(
    private readonly autoScaling: AutoScalingClient,
    private readonly ec2: EC2Client,
  ) {}

  async getPool(cluster: ClusterRef, poolName: string): Promise<PoolState | undefined> {
    const groups = await this.findGroups(cluster, poolName);
    if (groups.length === 0) return undefined;

    const factsCache = new Map<string, Promise<TemplateFacts>>();
    const generations = await Promise.all(
      groups.map(async (group) =>
        generationOf(
          group,
          needsTemplateFacts(group) ? await this.templateFacts(currentTemplate(group), factsCache) : undefined,
        ),
      ),
    );
    const ec2 = await this.instanceFacts(groups.flatMap((g) => (g.Instances ?? []).map((i) => i.InstanceId ?? '')));

    const instances: PoolInstance[] = [];
    groups.forEach((group, index) => {
      for (const instance of group.Instances ?? []) {
        const id = instance.InstanceId ?? '';
        const facts = ec2.get(id);
        const version = launchedFrom(instance, facts)?.version;
        const type = facts?.instanceType ?? instance.InstanceType;
        instances.push({
          instanceId: id,
          availabilityZone: instance.AvailabilityZone ?? '',
          lifecycleState: instance.LifecycleState ?? 'Unknown',
          healthy: instance.HealthStatus === 'Healthy' && instance.LifecycleState === 'InService',
          outdated: isOutdated(instance, generations[index], facts),
          ...(version ? { launchTemplateVersion: version } : {}),
          ...(type ? { instanceType: type } : {}),
          asgName: group.AutoScalingGroupName ?? '',
          ...(facts?.launchedAt !== undefined ? { launchedAt: facts.launchedAt } : {}),
        });
      }
    });
    const failures = await Promise.all(groups.map((g) => launchFailureOf(this.autoScaling, g)));
    const pool = groups.map((g, i) => {
      const preRoll = preRollOf(g);
      const failure = failures[i] ? { launchFailure: failures[i] } : {};
      return { ...sizeOf(g), name: g.AutoScalingGroupName ?? '', ...(preRoll ? { preRoll } : {}), ...failure };
    });
    return {
      poolName,
      desired: sum(pool.map((g) => g.desired)),
      min: sum(pool.map((g) => g.min)),
      max: sum(pool.map((g) => g.max)),
      groups: pool,
      instances,
    };
  }

  async scale(cluster: ClusterRef, poolName: string, desired: number): Promise<void> {
    if (!Number.isInteger(desired) || desired < 0) {
      throw new ValidationError(
        `cannot scale node pool ${poolName} of cluster ${cluster.id} to ${desired}: a whole number >= 0 is required`,
      );
    }
    const groups = await this.findGroups(cluster, poolName);
    if (groups.length === 0)
      throw new NotFoundError(`node pool ${poolName} of cluster ${cluster.id} has no Auto Scaling group`);
    const target = distributeDesired(
      groups.map((g) => ({ name: g.AutoScalingGroupName ?? '', desired: g.DesiredCapacity ?? 0 })),
      desired,
    );
    for (const group of groups) {
      const name = group.AutoScalingGroupName ?? '';
      const next = target.get(name) ?? 0;
      if (next === (group.DesiredCapacity ?? 0)) continue;
      await this.updateGroup(name, {
        DesiredCapacity: next,
        ...(next < (group.MinSize ?? 0) ? { MinSize: next } : {}),
        ...(next > (group.MaxSize ?? 0) ? { MaxSize: next } : {}),
      });
    }
  }

  async terminate(cluster: ClusterRef, instanceId: string, decrementDesired: boolean): Promise<void> {
    const membership = await this.call(`Auto Scaling DescribeAutoScalingInstances ${instanceId}`, () =>
      this.autoScaling.send(new DescribeAutoScalingInstancesCommand({ InstanceIds: [instanceId] })),
    );
    const member = membership.AutoScalingInstances?.[0];
    // Not in any group: already terminated and gone (or detached). Terminating is idempotent, so nothing to do.
    if (!member?.AutoScalingGroupName || /^Terminat/.test(member.LifecycleState ?? '')) return;

    const group = await this.describeGroup(member.AutoScalingGroupName);
    const owned = group?.Tags?.some((t) => t.Key === clusterOwnershipTag(cluster) && t.Value === 'owned');
    if (!group || !owned) {
      throw new RolloutError(
        `refusing to terminate ${instanceId}: its Auto Scaling group ${member.AutoScalingGroupName} is not tagged ${clusterOwnershipTag(cluster)}=owned (cluster ${cluster.id})`,
      );
    }
    const min = group.MinSize ?? 0;
    const desired = group.DesiredCapacity ?? 0;
    if (decrementDesired && min > 0 && desired - 1 < min)
      await this.updateGroup(member.AutoScalingGroupName, { MinSize: Math.max(0, desired - 1) });
    try {
      await this.autoScaling.send(
        new TerminateInstanceInAutoScalingGroupCommand({
          InstanceId: instanceId,
          ShouldDecrementDesiredCapacity: decrementDesired,
        }),
      );
    } catch (error) {
      if (awsErrorName(error) === 'ValidationError' && /not found|is not part of/i.test(awsErrorMessage(error))) return;
      throw toClmError(
        error,
        `Auto Scaling TerminateInstanceInAutoScalingGroup ${instanceId} (${member.AutoScalingGroupName})`,
      );
    }
  }

  async markPreRollSize(cluster: ClusterRef, poolName: string, pairing?: number): Promise<void> {
    await markPreRollSize(this.autoScaling, await this.findGroups(cluster, poolName), pairing);
  }

  async restorePreRollSize(cluster: ClusterRef, poolName: string): Promise<void> {
    await restorePreRollSize(this.autoScaling, await this.findGroups(cluster, poolName));
  }

  async markForDecommission(cluster: ClusterRef, poolName: string): Promise<void> {
    for (const group of await this.findGroups(cluster, poolName)) {
      const name = group.AutoScalingGroupName ?? '';
      if (group.Tags?.some((t) => t.Key === CLUSTER_AUTOSCALER_TAG)) {
        await this.call(`Auto Scaling DeleteTags ${CLUSTER_AUTOSCALER_TAG} on ${name}`, () =>
          this.autoScaling.send(
            new DeleteTagsCommand({
              Tags: [{ ResourceId: name, ResourceType: 'auto-scaling-group', Key: CLUSTER_AUTOSCALER_TAG }],
            }),
          ),
        );
      }
      if ((group.MinSize ?? 0) > 0) await this.updateGroup(name, { MinSize: 0 });
    }
  }

  private async findGroups(cluster: ClusterRef, poolName: string): Promise<AutoScalingGroup[]> {
    const filters = [
      { Name: `tag:${clusterOwnershipTag(cluster)}`, Values: ['owned'] },
      { Name: 'tag:NodePool', Values: [poolName] },
    ];
    const groups: AutoScalingGroup[] = [];
    await this.call(`Auto Scaling DescribeAutoScalingGroups (pool ${poolName} of cluster ${cluster.id})`, async () => {
      for await (const page of paginateDescribeAutoScalingGroups({ client: this.autoScaling }, { Filters: filters })) {
        groups.push(...(page.AutoScalingGroups ?? []));
      }
    });
    return groups.sort((a, b) => (a.AutoScalingGroupName ?? '').localeCompare(b.AutoScalingGroupName ?? ''));
  }

  private async describeGroup(name: string): Promise<AutoScalingGroup | undefined> {
    const out = await this.call(`Auto Scaling DescribeAutoScalingGroups ${name}`, () =>
      this.autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [name] })),
    );
    return out.AutoScalingGroups?.[0];
  }

  private async updateGroup(
    name: string,
    change: { DesiredCapacity?: number; MinSize?: number; MaxSize?: number },
  ): Promise<void> {
    await this.call(`Auto Scaling UpdateAutoScalingGroup ${name}`, () =>
      this.autoScaling.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: name, ...change })),
    );
  }

  private templateFacts(ref: TemplateRef, cache: Map<string, Promise<TemplateFacts>>): Promise<TemplateFacts> {
    const key = `${ref.id ?? ref.name}@${ref.version}`;
    let facts = cache.get(key);
    if (!facts) {
      facts = this.call(`EC2 DescribeLaunchTemplateVersions ${key}`, async () => {
        const out = await this.ec2.send(
          new DescribeLaunchTemplateVersionsCommand({
            ...(ref.id ? { LaunchTemplateId: ref.id } : { LaunchTemplateName: ref.name }),
            Versions: [ref.version],
          }),
        );
        const data = out.LaunchTemplateVersions?.[0]?.LaunchTemplateData;
        if (!data) throw new NotFoundError(`launch template ${key} was not found`);
        return { instanceType: data.InstanceType, spot: data.InstanceMarketOptions?.MarketType === 'spot' };
      });
      cache.set(key, facts);
    }
    return facts;
  }

  /**
   * Instance id → what EC2 says: spot-ness (SpotInstanceRequestId, as CLM, or lifecycle "spot"), type and the launch
   * template tags. The tags are the launch-time truth on AWS and the only per-instance version moto gets right (its
   * ASG reports every instance at the template's current default version). Filtering by `instance-id` instead of
   * passing InstanceIds means an instance terminated meanwhile is simply absent rather than failing the batch.
   */
  private async instanceFacts(instanceIds: readonly string[]): Promise<Map<string, InstanceFacts>> {
    const result = new Map<string, InstanceFacts>();
    const ids = instanceIds.filter(Boolean);
    for (let start = 0; start < ids.length; start += INSTANCE_BATCH) {
      const batch = ids.slice(start, start + INSTANCE_BATCH);
      await this.call(`EC2 DescribeInstances (${batch.length} instances)`, async () => {
        for await (const page of paginateDescribeInstances(
          { client: this.ec2 },
          { Filters: [{ Name: 'instance-id', Values: batch }] },
        )) {
          for (const reservation of page.Reservations ?? []) {
            for (const instance of reservation.Instances ?? []) {
              if (!instance.InstanceId) continue;
              const tag = (key: string) => instance.Tags?.find((t) => t.Key === key)?.Value;
              const templateId = tag('aws:ec2launchtemplate:id');
              const templateVersion = tag('aws:ec2launchtemplate:version');
              result.set(instance.InstanceId, {
                spot: Boolean(instance.SpotInstanceRequestId) || instance.InstanceLifecycle === 'spot',
                ...(instance.InstanceType ? { instanceType: instance.InstanceType } : {}),
                ...(templateId ? { launchTemplateId: templateId } : {}),
                ...(templateVersion ? { launchTemplateVersion: templateVersion } : {}),
                ...(instance.LaunchTime ? { launchedAt: instance.LaunchTime.getTime() } : {}),
              });
            }
          }
        }
      });
    }
    return result;
  }

  karpenterInstances(cluster: ClusterRef, pool?: string): Promise<KarpenterInstance[]> {
    return describeKarpenterInstances(this.ec2, cluster, pool);
  }

  terminateInstances(cluster: ClusterRef, instanceIds: readonly string[]): Promise<void> {
    return terminateKarpenterInstances(this.ec2, cluster, instanceIds);
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toClmError(error, what);
    }
  }
}

const sum = (values: readonly number[]): number => values.reduce((total, v) => total + v, 0);
