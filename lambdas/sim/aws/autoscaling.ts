import type { SimContext } from '../sim-context';
import type {
  AccountState,
  AsgRecord,
  InstanceRecord,
  LaunchTemplateRecord,
  LaunchTemplateVersion,
} from '../world-state';
import { hashOf } from '../hash';
import { allocatePrivateIp } from './account';
import { retryLaunchLater, takeRunInstancesToken } from './run-instances-bucket';
import { recordLaunchActivity } from './scaling-activities';
import { QUOTA_RETRY_SECONDS, refuseOverQuota } from './vcpu-quota';

/**
 * Auto Scaling and EC2: an ASG launches instances until it has `desired` active ones, spread evenly over its
 * AZs; each instance carries the launch-template version the ASG referenced when it launched, so a
 * template change makes it outdated (CLM §7.1). Instances boot (Pending → InService) and shut down
 * (Terminating → Terminated) on the virtual clock.
 */

const ACTIVE = new Set(['Pending', 'InService']);

export function isActive(instance: InstanceRecord): boolean {
  return ACTIVE.has(instance.state);
}

/** The ASG's instances that still exist (everything but Terminated), oldest first. */
export function asgInstances(account: AccountState, asgName: string): InstanceRecord[] {
  return Object.values(account.instances)
    .filter((instance) => instance.asg === asgName && instance.state !== 'Terminated')
    .sort((a, b) => a.seq - b.seq);
}

export function resolveLaunchTemplateVersion(
  account: AccountState,
  spec: AsgRecord['launchTemplate'],
): LaunchTemplateVersion | undefined {
  if (!spec) return undefined;
  const template: LaunchTemplateRecord | undefined = account.launchTemplates[spec.id];
  if (!template) return undefined;
  const latest = template.versions[template.versions.length - 1];
  const number =
    spec.version === '$Latest'
      ? latest.number
      : spec.version === '$Default'
        ? template.defaultVersion
        : Number(spec.version);
  return template.versions.find((version) => version.number === number);
}

function expectedSpot(asg: AsgRecord, version: LaunchTemplateVersion | undefined): boolean {
  return asg.mixed ? asg.mixed.onDemandPercentage === 0 : (version?.spot ?? false);
}

function allowedTypes(asg: AsgRecord, version: LaunchTemplateVersion | undefined): string[] {
  if (asg.mixed && asg.mixed.instanceTypes.length > 0) return asg.mixed.instanceTypes;
  return version?.instanceType ? [version.instanceType] : [];
}

/** CLM §7.1: launch template id or version, instance type, or spot-ness differ from what the ASG wants now. */
export function isOutdated(account: AccountState, asg: AsgRecord | undefined, instance: InstanceRecord): boolean {
  if (!asg) return true;
  const version = resolveLaunchTemplateVersion(account, asg.launchTemplate);
  if (instance.launchTemplateId !== asg.launchTemplate?.id) return true;
  if (version && instance.launchTemplateVersion !== String(version.number)) return true;
  const types = allowedTypes(asg, version);
  if (types.length > 0 && !types.includes(instance.instanceType)) return true;
  return instance.spot !== expectedSpot(asg, version);
}

function launch(ctx: SimContext, account: AccountState, asg: AsgRecord, az: string): InstanceRecord {
  const version = resolveLaunchTemplateVersion(account, asg.launchTemplate);
  const tags: Record<string, string> = {};
  for (const [key, tag] of Object.entries(asg.tags)) if (tag.propagate) tags[key] = tag.value;
  tags['aws:autoscaling:groupName'] = asg.name;
  const cluster = account.stacks[asg.stack]?.cluster;
  const instance: InstanceRecord = {
    // The group's name in the id: processes working on different clusters of one account (each with its own copy of
    // the PRNG) never make the same id.
    id: `i-${hashOf([asg.name, ctx.rng.hex(17)], 17)}`,
    asg: asg.name,
    ...(cluster ? { cluster } : {}),
    az,
    state: 'Pending',
    launchTemplateId: asg.launchTemplate?.id,
    launchTemplateVersion: version ? String(version.number) : undefined,
    instanceType: allowedTypes(asg, version)[0] ?? 'm5.large',
    spot: expectedSpot(asg, version),
    privateIp: allocatePrivateIp(account, az),
    launchedAt: ctx.now,
    seq: ctx.nextSeq(),
    tags,
    ...(version?.instanceProfile ? { instanceProfile: version.instanceProfile } : {}),
    ...(version?.bundles?.length ? { bundles: version.bundles } : {}),
    ...(version?.registration ? { registration: version.registration } : {}),
  };
  return startInstance(ctx, account, instance);
}

/** A launched instance joins the account and boots in `instanceBootSeconds` (ASG and Karpenter launches alike). */
export function startInstance(ctx: SimContext, account: AccountState, instance: InstanceRecord): InstanceRecord {
  account.instances[instance.id] = instance;
  ctx.schedule(ctx.timings.instanceBootSeconds, {
    type: 'instance-boot',
    account: account.key,
    instanceId: instance.id,
  });
  return instance;
}

/** Start shutting an instance down; it is Terminated `instanceTerminateSeconds` later. */
export function beginTermination(ctx: SimContext, account: AccountState, instance: InstanceRecord): void {
  instance.state = 'Terminating';
  ctx.schedule(ctx.timings.instanceTerminateSeconds, {
    type: 'instance-gone',
    account: account.key,
    instanceId: instance.id,
  });
}

function countByAz(asg: AsgRecord, active: readonly InstanceRecord[]): Map<string, number> {
  const counts = new Map(asg.azs.map((az) => [az, 0]));
  for (const instance of active) counts.set(instance.az, (counts.get(instance.az) ?? 0) + 1);
  return counts;
}

/** Launch or terminate until the ASG has `desired` active instances, keeping AZs balanced. */
export function reconcileAsg(ctx: SimContext, account: AccountState, asg: AsgRecord): void {
  const active = asgInstances(account, asg.name).filter(isActive);
  if (asg.azs.length === 0) return;
  for (let missing = asg.desired - active.length; missing > 0; missing -= 1) {
    // EC2 refuses a launch over the account's vCPU quota (no token taken): the activity fails, the group tries again.
    const version = resolveLaunchTemplateVersion(account, asg.launchTemplate);
    const refused = refuseOverQuota(
      ctx,
      account,
      allowedTypes(asg, version)[0] ?? 'm5.large',
      expectedSpot(asg, version),
    );
    if (refused) {
      recordLaunchActivity(ctx, asg, { from: active.length, failure: refused });
      retryLaunchLater(ctx, account, asg, QUOTA_RETRY_SECONDS);
      break;
    }
    if (!takeRunInstancesToken(ctx, account)) {
      retryLaunchLater(ctx, account, asg);
      break;
    }
    const counts = countByAz(asg, active);
    const az = asg.azs.reduce((best, candidate) =>
      (counts.get(candidate) ?? 0) < (counts.get(best) ?? 0) ? candidate : best,
    );
    const instance = launch(ctx, account, asg, az);
    recordLaunchActivity(ctx, asg, { from: active.length, instanceId: instance.id });
    active.push(instance);
  }
  for (let extra = active.length - asg.desired; extra > 0; extra -= 1) {
    // AWS's default termination policy: the most crowded AZ, then an outdated launch template, then the oldest.
    const counts = countByAz(asg, active);
    const crowded = Math.max(...counts.values());
    const candidates = active.filter((instance) => counts.get(instance.az) === crowded);
    const victim = candidates.find((instance) => isOutdated(account, asg, instance)) ?? candidates[0];
    beginTermination(ctx, account, victim);
    active.splice(active.indexOf(victim), 1);
  }
}

/** TerminateInstanceInAutoScalingGroup. A second termination of the same instance is a no-op, counted as a bug. */
export function terminateInstance(
  ctx: SimContext,
  account: AccountState,
  instance: InstanceRecord,
  decrement: boolean,
): 'terminating' | 'already' {
  if (!isActive(instance)) {
    ctx.terminatedTwice(`instance ${instance.id} (${instance.asg}) terminated again while ${instance.state}`);
    return 'already';
  }
  const asg = account.asgs[instance.asg];
  if (asg && decrement) {
    asg.desired = Math.max(0, asg.desired - 1);
    if (asg.desired < asg.min) asg.min = asg.desired;
  }
  beginTermination(ctx, account, instance);
  if (asg) reconcileAsg(ctx, account, asg);
  return 'terminating';
}

/** Delete an ASG (stack deletion or resource removal): every instance is terminated. */
export function deleteAsg(ctx: SimContext, account: AccountState, name: string): void {
  for (const instance of asgInstances(account, name)) if (isActive(instance)) beginTermination(ctx, account, instance);
  delete account.asgs[name];
}

/** The instance-boot event: Pending → InService. Returns the instance when it just came up. */
export function instanceBooted(account: AccountState, instanceId: string): InstanceRecord | undefined {
  const instance = account.instances[instanceId];
  if (!instance || instance.state !== 'Pending') return undefined;
  instance.state = 'InService';
  return instance;
}

/** The instance-gone event: Terminating → Terminated. */
export function instanceGone(account: AccountState, instanceId: string): InstanceRecord | undefined {
  const instance = account.instances[instanceId];
  if (!instance || instance.state !== 'Terminating') return undefined;
  instance.state = 'Terminated';
  return instance;
}

/** ASGs of a node pool: tagged `kubernetes.io/cluster/<name>=owned` and `NodePool` (or `kubernetes.io/node-pool`) = pool. */
export function poolAsgs(account: AccountState, clusterName: string, pool: string): AsgRecord[] {
  return Object.values(account.asgs)
    .filter((asg) => asg.tags[`kubernetes.io/cluster/${clusterName}`]?.value === 'owned' && poolOfAsg(asg) === pool)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

export function poolOfAsg(asg: AsgRecord): string | undefined {
  return (
    asg.tags.NodePool?.value ??
    asg.tags['kubernetes.io/node-pool']?.value ??
    asg.tags['node.kubernetes.io/node-pool']?.value
  );
}

/** Set a pool's total desired capacity: increases go to the smallest groups, decreases come from the largest. */
export function scalePool(ctx: SimContext, account: AccountState, asgs: readonly AsgRecord[], desired: number): void {
  if (asgs.length === 0) return;
  let total = asgs.reduce((sum, asg) => sum + asg.desired, 0);
  while (total < desired) {
    asgs.reduce((a, b) => (b.desired < a.desired ? b : a)).desired += 1;
    total += 1;
  }
  while (total > desired) {
    asgs.reduce((a, b) => (b.desired > a.desired ? b : a)).desired -= 1;
    total -= 1;
  }
  for (const asg of asgs) {
    if (asg.desired > asg.max) asg.max = asg.desired;
    if (asg.desired < asg.min) asg.min = asg.desired;
    reconcileAsg(ctx, account, asg);
  }
}
