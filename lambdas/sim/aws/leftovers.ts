/**
 * The load balancers (v2 ones with a target group), security groups, volumes and network interfaces a cluster's
 * Kubernetes made in the simulated account outside CloudFormation (scenario `clusters.<id>.leftovers`), with AWS's
 * rules for deleting them: a security group is in use while a load balancer lists it (DependencyViolation), a target
 * group while a load balancer forwards to it (ResourceInUse), an attached volume or an interface in use
 * cannot be deleted.
 */
import {
  CNI_CLUSTER_TAG,
  LB_CONTROLLER_CLUSTER_TAG,
  ownedBy,
  ownedTag,
  ownedTags,
  type Leftover,
} from '../../core/decommission/leftovers';
import { hashOf } from '../hash';
import type { Leftovers } from '../scenario';
import type { AccountState, CloudResourceRecord } from '../world-state';

function resources(account: AccountState): Record<string, CloudResourceRecord> {
  return (account.cloudResources ??= {});
}

/** Creates what the scenario says the cluster left; ids are hashes, the same in every run. */
export function seedLeftovers(account: AccountState, clusterId: string, clusterName: string, spec: Leftovers): void {
  const all = resources(account);
  const tag = ownedTag(clusterName);
  const tags = (extra: Record<string, string> = {}) => ({ [tag.key]: tag.value, ...extra });
  const id = (prefix: string, ...parts: string[]) => `${prefix}-${hashOf([account.key, clusterId, ...parts], 17)}`;
  const add = (record: Omit<CloudResourceRecord, 'cluster'>) => (all[record.id] = { ...record, cluster: clusterId });
  for (const lb of spec.loadBalancers) {
    // ALBs come from the AWS Load Balancer Controller, which tags only its own key; the cloud provider makes the rest.
    const byController = lb.type === 'application';
    const lbTags = byController
      ? { [LB_CONTROLLER_CLUSTER_TAG]: clusterName, 'ingress.k8s.aws/stack': lb.name }
      : tags(lb.type === 'network' ? { [LB_CONTROLLER_CLUSTER_TAG]: clusterName } : {});
    const group = id('sg', 'lb', lb.name);
    add({
      kind: 'security-group',
      id: group,
      tags: byController
        ? { ...lbTags, 'elbv2.k8s.aws/resource': 'ManagedLBSecurityGroup' }
        : tags({
            'kubernetes.io/cluster-service': 'true',
            Name: lb.type === 'classic' ? `k8s-elb-${lb.name}` : `k8s-${lb.name}`,
          }),
    });
    if (lb.type === 'classic')
      add({ kind: 'classic-load-balancer', id: lb.name, tags: tags(), securityGroups: [group] });
    else {
      const arn = (resource: string, name: string) =>
        `arn:aws:elasticloadbalancing:${account.region}:${account.accountId}:${resource}/${name}/${hashOf([account.key, name], 16)}`;
      const targetGroup = `${lb.name.slice(0, 29)}-tg`;
      add({ kind: 'target-group', id: targetGroup, arn: arn('targetgroup', targetGroup), tags: lbTags });
      add({
        kind: 'load-balancer',
        id: lb.name,
        arn: arn(`loadbalancer/${lb.type === 'application' ? 'app' : 'net'}`, lb.name),
        tags: lbTags,
        securityGroups: [group],
        targetGroups: [targetGroup],
      });
    }
  }
  for (let i = 0; i < spec.volumes; i++)
    add({
      kind: 'volume',
      id: id('vol', 'volume', String(i)),
      state: 'available',
      tags: tags({ 'kubernetes.io/created-for/pvc/name': `data-${i}` }),
    });
  for (let i = 0; i < spec.networkInterfaces; i++)
    add({
      kind: 'network-interface',
      id: id('eni', 'eni', String(i)),
      state: 'available',
      tags: { [CNI_CLUSTER_TAG]: clusterName, 'node.k8s.amazonaws.com/instance_id': id('i', 'node', String(i)) },
    });
}

/**
 * What the cluster named `clusterName` left, no CloudFormation tag, found as the adapter finds it: volumes and
 * interfaces by the cloud provider's tag (interfaces also by the CNI's), security groups, load balancers and target
 * groups by any of the cluster's tags (the AWS Load Balancer Controller's too).
 */
export function findLeftovers(account: AccountState, clusterName: string): Leftover[] {
  const byProvider = [ownedTag(clusterName)];
  const owned = ownedTags(clusterName);
  const ours = (r: CloudResourceRecord): boolean =>
    r.kind === 'volume'
      ? ownedBy(r.tags, byProvider)
      : r.kind === 'network-interface'
        ? ownedBy(r.tags, byProvider) || r.tags[CNI_CLUSTER_TAG] === clusterName
        : ownedBy(r.tags, owned);
  return Object.values(resources(account))
    .filter((r) => ours(r) && !('aws:cloudformation:stack-id' in r.tags))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((r) => ({ kind: r.kind, id: r.id, ...(r.arn ? { arn: r.arn } : {}), ...(r.state ? { state: r.state } : {}) }));
}

export function deleteLeftover(account: AccountState, item: Leftover): 'deleted' | 'gone' | 'in-use' {
  const all = resources(account);
  const record = all[item.id];
  if (!record || record.kind !== item.kind) return 'gone';
  if (record.kind === 'security-group' && Object.values(all).some((r) => r.securityGroups?.includes(record.id)))
    return 'in-use';
  if (record.kind === 'target-group' && Object.values(all).some((r) => r.targetGroups?.includes(record.id)))
    return 'in-use';
  if ((record.kind === 'volume' || record.kind === 'network-interface') && record.state !== 'available')
    return 'in-use';
  delete all[item.id];
  return 'deleted';
}

/** Every resource of the account that no stack made, for tests and `describe`. */
export function cloudResourcesOf(account: AccountState | undefined, clusterId: string): CloudResourceRecord[] {
  return Object.values(account?.cloudResources ?? {}).filter((r) => r.cluster === clusterId);
}
