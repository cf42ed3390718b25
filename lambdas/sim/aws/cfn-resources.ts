import { hashOf, hashValue } from '../hash';
import type { SimContext } from '../sim-context';
import type { AccountState, AsgRecord, ResourceRecord, StackRecord } from '../world-state';
import { subnetZone } from './account';
import { deleteAsg, reconcileAsg } from './autoscaling';
import { CfnEvalError } from './cfn-intrinsics';

/**
 * What creating, updating and deleting one stack resource does. Launch templates and ASGs are real
 * (versions, instances); every other type gets a deterministic physical id and the attributes templates
 * commonly read (Arn, DNSName, GroupId, ...).
 */

export interface ResourceScope {
  readonly ctx: SimContext;
  readonly account: AccountState;
  readonly stack: StackRecord;
  /** Tags of the stack as they will be after this operation (CloudFormation propagates them). */
  readonly stackTags: Readonly<Record<string, string>>;
  readonly logicalId: string;
  readonly previous?: ResourceRecord;
}

type Provisioned = Pick<ResourceRecord, 'physicalId' | 'attributes'>;
type Props = Record<string, unknown>;

const upperId = (parts: string[], length: number): string => hashOf(parts, length).toUpperCase();

function defaultName(scope: ResourceScope, maxLength = 128): string {
  return (
    `${scope.stack.name}-${scope.logicalId}`.slice(0, maxLength - 14) +
    `-${upperId([scope.stack.stackId, scope.logicalId], 13)}`
  );
}

function int(value: unknown, field: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === undefined || value === '' || !Number.isInteger(n) || n < 0)
    throw new CfnEvalError(`${field}: expected a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

function launchTemplate(scope: ResourceScope, props: Props): Provisioned {
  const { account, previous } = scope;
  const name =
    typeof props.LaunchTemplateName === 'string'
      ? props.LaunchTemplateName
      : `${scope.logicalId}-${upperId([scope.stack.stackId, scope.logicalId], 12)}`;
  const reuse =
    previous && account.launchTemplates[previous.physicalId]?.name === name
      ? account.launchTemplates[previous.physicalId]
      : undefined;
  if (previous && !reuse) delete account.launchTemplates[previous.physicalId];
  const data = (props.LaunchTemplateData ?? {}) as Props;
  const market = (data.InstanceMarketOptions as Props | undefined)?.MarketType;
  const version = {
    dataHash: hashValue(data),
    instanceType: typeof data.InstanceType === 'string' ? data.InstanceType : undefined,
    spot: market === 'spot',
  };
  const template = reuse ?? {
    id: `lt-${hashOf([account.key, scope.stack.stackId, scope.logicalId, name], 17)}`,
    name,
    versions: [],
    defaultVersion: 1,
  };
  const latest = template.versions[template.versions.length - 1];
  if (!latest || latest.dataHash !== version.dataHash) {
    template.versions.push({ number: (latest?.number ?? 0) + 1, ...version });
    template.defaultVersion = (latest?.number ?? 0) + 1;
  }
  account.launchTemplates[template.id] = template;
  const newest = String(template.versions[template.versions.length - 1].number);
  return {
    physicalId: template.id,
    attributes: {
      LaunchTemplateId: template.id,
      LatestVersionNumber: newest,
      DefaultVersionNumber: String(template.defaultVersion),
    },
  };
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

function autoScalingGroup(scope: ResourceScope, props: Props): Provisioned {
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

function genericResource(scope: ResourceScope, type: string, props: Props): Provisioned {
  const { account, stack, logicalId } = scope;
  const hex = (n: number): string => hashOf([account.key, stack.stackId, logicalId], n);
  const arn = (service: string, resource: string, global = false): string =>
    `arn:aws:${service}:${global ? '' : account.region}:${account.accountId}:${resource}`;
  const named = (prop: string, max?: number): string =>
    typeof props[prop] === 'string' ? (props[prop] as string) : defaultName(scope, max);
  switch (type) {
    case 'AWS::EC2::SecurityGroup': {
      const id = `sg-${hex(17)}`;
      return { physicalId: id, attributes: { GroupId: id, VpcId: String(props.VpcId ?? account.vpc.id) } };
    }
    case 'AWS::IAM::Role': {
      const name = named('RoleName', 64);
      return {
        physicalId: name,
        attributes: {
          Arn: arn('iam', `role${String(props.Path ?? '/')}${name}`, true),
          RoleId: `AROA${upperId([hex(16)], 17)}`,
        },
      };
    }
    case 'AWS::IAM::InstanceProfile': {
      const name = named('InstanceProfileName');
      return { physicalId: name, attributes: { Arn: arn('iam', `instance-profile/${name}`, true) } };
    }
    case 'AWS::IAM::ManagedPolicy':
      return { physicalId: arn('iam', `policy/${named('ManagedPolicyName')}`, true), attributes: {} };
    case 'AWS::KMS::Key': {
      const id = `${hex(8)}-${hex(12).slice(8)}-4${hex(15).slice(12)}-a${hex(18).slice(15)}-${hex(30).slice(18)}`;
      return { physicalId: id, attributes: { Arn: arn('kms', `key/${id}`), KeyId: id } };
    }
    case 'AWS::S3::Bucket': {
      const name = named('BucketName', 63).toLowerCase();
      return {
        physicalId: name,
        attributes: {
          Arn: `arn:aws:s3:::${name}`,
          DomainName: `${name}.s3.amazonaws.com`,
          RegionalDomainName: `${name}.s3.${account.region}.amazonaws.com`,
        },
      };
    }
    case 'AWS::ElasticLoadBalancingV2::LoadBalancer': {
      const name = named('Name', 32);
      const full = `app/${name}/${hex(16)}`;
      return {
        physicalId: arn('elasticloadbalancing', `loadbalancer/${full}`),
        attributes: {
          DNSName: `${name}-${hex(10)}.${account.region}.elb.amazonaws.com`,
          CanonicalHostedZoneID: 'Z215JYRZR1TBD5',
          LoadBalancerFullName: full,
          LoadBalancerName: name,
        },
      };
    }
    case 'AWS::ElasticLoadBalancingV2::TargetGroup': {
      const name = named('Name', 32);
      return {
        physicalId: arn('elasticloadbalancing', `targetgroup/${name}/${hex(16)}`),
        attributes: { TargetGroupFullName: `targetgroup/${name}/${hex(16)}`, TargetGroupName: name },
      };
    }
    case 'AWS::ElasticLoadBalancing::LoadBalancer': {
      const name = named('LoadBalancerName', 32);
      return {
        physicalId: name,
        attributes: {
          DNSName: `${name}-${hex(10)}.${account.region}.elb.amazonaws.com`,
          CanonicalHostedZoneNameID: 'Z215JYRZR1TBD5',
        },
      };
    }
    case 'AWS::Route53::RecordSet':
      return { physicalId: String(props.Name ?? defaultName(scope)), attributes: {} };
    case 'AWS::SQS::Queue': {
      const name = named('QueueName', 80);
      return {
        physicalId: `https://sqs.${account.region}.amazonaws.com/${account.accountId}/${name}`,
        attributes: {
          Arn: arn('sqs', name),
          QueueName: name,
          QueueUrl: `https://sqs.${account.region}.amazonaws.com/${account.accountId}/${name}`,
        },
      };
    }
    default: {
      const id = defaultName(scope);
      const service = type.split('::')[1]?.toLowerCase() ?? 'custom';
      return {
        physicalId: id,
        attributes: { Arn: arn(service, `${(type.split('::')[2] ?? 'resource').toLowerCase()}/${id}`) },
      };
    }
  }
}

/** Create or update a resource with evaluated properties. */
export function provisionResource(scope: ResourceScope, type: string, props: Props): Provisioned {
  if (scope.previous && scope.previous.type !== type) deleteResource(scope.ctx, scope.account, scope.previous);
  const previous = scope.previous?.type === type ? scope.previous : undefined;
  const scoped = { ...scope, previous };
  if (type === 'AWS::EC2::LaunchTemplate') return launchTemplate(scoped, props);
  if (type === 'AWS::AutoScaling::AutoScalingGroup') return autoScalingGroup(scoped, props);
  return genericResource(scoped, type, props);
}

export function deleteResource(ctx: SimContext, account: AccountState, record: ResourceRecord): void {
  if (record.type === 'AWS::AutoScaling::AutoScalingGroup') deleteAsg(ctx, account, record.physicalId);
  if (record.type === 'AWS::EC2::LaunchTemplate') delete account.launchTemplates[record.physicalId];
}

/** `Fn::GetAtt` on a resource: a known attribute, else a stable made-up value (CloudFormation would validate the name). */
export function resourceAttribute(record: ResourceRecord, attribute: string): string | number {
  return record.attributes[attribute] ?? `${record.physicalId}.${attribute}`;
}
