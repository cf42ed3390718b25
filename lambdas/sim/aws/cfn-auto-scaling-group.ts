import type { AccountState, AsgRecord } from '../world-state';
import { subnetZone } from './account';
import { deleteAsg, reconcileAsg } from './autoscaling';
import { CfnEvalError } from './cfn-intrinsics';
import type { Props, Provisioned, ResourceScope } from './cfn-resource-scope';
import { defaultName } from './cfn-resource-scope';

/**
 * `AWS::AutoScaling::AutoScalingGroup`: a real group in the account (bounds, launch template or mixed instances
 * policy, zones from subnets, tags), reconciled at once so its instances follow. A new name replaces the group.
 */

function int(value: unknown, field: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === undefined || value === '' || !Number.isInteger(n) || n < 0)
    throw new CfnEvalError(`${field}: expected a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

function asgLaunchTemplate(account: AccountState, spec: unknown): AsgRecord['launchTemplate'] {
  if (!spec || typeof spec !== 'object') return undefined;
  const { LaunchTemplateId: id, LaunchTemplateName: name, Version: version } = spec as Props;
  const template =
    typeof id === 'string'
      ? account.launchTemplates[id]
      : Object.values(account.launchTemplates).find((t) => t.name === name);
  if (!template)
    throw new CfnEvalError(
      `The specified launch template, with template ${id ? `ID ${String(id)}` : `name ${String(name)}`}, does not exist.`,
    );
  return { id: template.id, version: version === undefined ? '$Default' : String(version) };
}

function asgZones(account: AccountState, props: Props): string[] {
  const subnets = props.VPCZoneIdentifier;
  if (subnets !== undefined) {
    const ids = Array.isArray(subnets)
      ? subnets.map(String)
      : String(subnets)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
    const zones = ids.map((id) => {
      const zone = subnetZone(account, id);
      if (!zone) throw new CfnEvalError(`The subnet ID '${id}' does not exist`);
      return zone;
    });
    return [...new Set(zones)];
  }
  if (Array.isArray(props.AvailabilityZones)) return [...new Set(props.AvailabilityZones.map(String))];
  throw new CfnEvalError('AutoScalingGroup needs VPCZoneIdentifier or AvailabilityZones');
}

function asgTags(scope: ResourceScope, props: Props): AsgRecord['tags'] {
  const tags: AsgRecord['tags'] = {};
  for (const [key, value] of Object.entries(scope.stackTags)) tags[key] = { value, propagate: true };
  for (const tag of (Array.isArray(props.Tags) ? props.Tags : []) as Props[]) {
    tags[String(tag.Key)] = {
      value: String(tag.Value ?? ''),
      propagate: tag.PropagateAtLaunch === true || tag.PropagateAtLaunch === 'true',
    };
  }
  tags['aws:cloudformation:stack-name'] = { value: scope.stack.name, propagate: true };
  tags['aws:cloudformation:logical-id'] = { value: scope.logicalId, propagate: true };
  return tags;
}
export function autoScalingGroupResource(scope: ResourceScope, props: Props): Provisioned {
  const { ctx, account, previous } = scope;
  const name =
    typeof props.AutoScalingGroupName === 'string'
      ? props.AutoScalingGroupName
      : (previous?.physicalId ?? defaultName(scope, 255));
  if (previous && previous.physicalId !== name) deleteAsg(ctx, account, previous.physicalId);
  const existing = account.asgs[name];
  if (existing && existing.stack !== scope.stack.name)
    throw new CfnEvalError(`AutoScalingGroup ${name} already exists`);
  const min = int(props.MinSize, 'MinSize');
  const max = int(props.MaxSize, 'MaxSize');
  if (min > max) throw new CfnEvalError(`MinSize ${min} is greater than MaxSize ${max}`);
  const mixed = props.MixedInstancesPolicy as Props | undefined;
  const ltSpec = mixed
    ? (mixed.LaunchTemplate as Props | undefined)?.LaunchTemplateSpecification
    : props.LaunchTemplate;
  const distribution = (mixed?.InstancesDistribution ?? {}) as Props;
  // AWS: an update without DesiredCapacity keeps the current desired capacity (within the new bounds).
  const desired =
    props.DesiredCapacity !== undefined
      ? int(props.DesiredCapacity, 'DesiredCapacity')
      : existing
        ? Math.min(max, Math.max(min, existing.desired))
        : min;
  if (desired < min || desired > max)
    throw new CfnEvalError(`DesiredCapacity ${desired} is outside MinSize ${min} and MaxSize ${max}`);
  const asg: AsgRecord = {
    name,
    stack: scope.stack.name,
    min,
    max,
    desired,
    launchTemplate: asgLaunchTemplate(account, ltSpec),
    mixed: mixed
      ? {
          instanceTypes: (((mixed.LaunchTemplate as Props | undefined)?.Overrides ?? []) as Props[])
            .map((o) => String(o.InstanceType))
            .filter((t) => t !== 'undefined'),
          onDemandPercentage:
            distribution.OnDemandPercentageAboveBaseCapacity === undefined
              ? 100
              : Number(distribution.OnDemandPercentageAboveBaseCapacity),
        }
      : undefined,
    azs: asgZones(account, props),
    tags: asgTags(scope, props),
    createdAt: existing?.createdAt ?? ctx.now,
  };
  account.asgs[name] = asg;
  reconcileAsg(ctx, account, asg);
  return { physicalId: name, attributes: {} };
}
