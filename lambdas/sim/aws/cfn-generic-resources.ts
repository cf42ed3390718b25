import { hashOf } from '../hash';
import type { AccountState } from '../world-state';
import type { Props, Provisioned, ResourceScope } from './cfn-resource-scope';
import { defaultName, upperId } from './cfn-resource-scope';

/**
 * Every stack resource type the simulator does not model: a deterministic physical id and the attributes
 * templates commonly read (Arn, DNSName, GroupId, ...). Types not listed get a generated name and an Arn.
 */

/** Naming helpers for one resource, bound to its scope and properties. */
interface Naming {
  readonly account: AccountState;
  readonly props: Props;
  /** `n` hex characters derived from the account, stack and logical id. */
  hex(n: number): string;
  arn(service: string, resource: string, global?: boolean): string;
  /** The name property when the template sets it, else a generated name of at most `max` characters. */
  named(prop: string, max?: number): string;
}

const ELB_ZONE_ID = 'Z215JYRZR1TBD5';

const GENERIC: Readonly<Record<string, (naming: Naming, scope: ResourceScope) => Provisioned>> = {
  'AWS::EC2::SecurityGroup': ({ hex, props, account }) => {
    const id = `sg-${hex(17)}`;
    return { physicalId: id, attributes: { GroupId: id, VpcId: String(props.VpcId ?? account.vpc.id) } };
  },
  'AWS::IAM::Role': ({ hex, arn, named, props }) => {
    const name = named('RoleName', 64);
    return {
      physicalId: name,
      attributes: {
        Arn: arn('iam', `role${String(props.Path ?? '/')}${name}`, true),
        RoleId: `AROA${upperId([hex(16)], 17)}`,
      },
    };
  },
  'AWS::IAM::InstanceProfile': ({ arn, named }) => {
    const name = named('InstanceProfileName');
    return { physicalId: name, attributes: { Arn: arn('iam', `instance-profile/${name}`, true) } };
  },
  'AWS::IAM::ManagedPolicy': ({ arn, named }) => ({
    physicalId: arn('iam', `policy/${named('ManagedPolicyName')}`, true),
    attributes: {},
  }),
  'AWS::KMS::Key': ({ hex, arn }) => {
    const id = `${hex(8)}-${hex(12).slice(8)}-4${hex(15).slice(12)}-a${hex(18).slice(15)}-${hex(30).slice(18)}`;
    return { physicalId: id, attributes: { Arn: arn('kms', `key/${id}`), KeyId: id } };
  },
  'AWS::KMS::Alias': ({ props }, scope) => ({
    physicalId: String(props.AliasName ?? defaultName(scope)),
    attributes: {},
  }),
  'AWS::S3::Bucket': ({ named, account }) => {
    const name = named('BucketName', 63).toLowerCase();
    return {
      physicalId: name,
      attributes: {
        Arn: `arn:aws:s3:::${name}`,
        DomainName: `${name}.s3.amazonaws.com`,
        RegionalDomainName: `${name}.s3.${account.region}.amazonaws.com`,
      },
    };
  },
  'AWS::ElasticLoadBalancingV2::LoadBalancer': ({ hex, arn, named, account }) => {
    const name = named('Name', 32);
    const full = `app/${name}/${hex(16)}`;
    return {
      physicalId: arn('elasticloadbalancing', `loadbalancer/${full}`),
      attributes: {
        DNSName: `${name}-${hex(10)}.${account.region}.elb.amazonaws.com`,
        CanonicalHostedZoneID: ELB_ZONE_ID,
        LoadBalancerFullName: full,
        LoadBalancerName: name,
      },
    };
  },
  'AWS::ElasticLoadBalancingV2::TargetGroup': ({ hex, arn, named }) => {
    const name = named('Name', 32);
    return {
      physicalId: arn('elasticloadbalancing', `targetgroup/${name}/${hex(16)}`),
      attributes: { TargetGroupFullName: `targetgroup/${name}/${hex(16)}`, TargetGroupName: name },
    };
  },
  'AWS::ElasticLoadBalancing::LoadBalancer': ({ hex, named, account }) => {
    const name = named('LoadBalancerName', 32);
    return {
      physicalId: name,
      attributes: {
        DNSName: `${name}-${hex(10)}.${account.region}.elb.amazonaws.com`,
        CanonicalHostedZoneNameID: ELB_ZONE_ID,
      },
    };
  },
  'AWS::Route53::RecordSet': ({ props }, scope) => ({
    physicalId: String(props.Name ?? defaultName(scope)),
    attributes: {},
  }),
  'AWS::SQS::Queue': ({ arn, named, account }) => {
    const name = named('QueueName', 80);
    const url = `https://sqs.${account.region}.amazonaws.com/${account.accountId}/${name}`;
    return { physicalId: url, attributes: { Arn: arn('sqs', name), QueueName: name, QueueUrl: url } };
  },
};

export function genericResource(scope: ResourceScope, type: string, props: Props): Provisioned {
  const { account, stack, logicalId } = scope;
  const naming: Naming = {
    account,
    props,
    hex: (n) => hashOf([account.key, stack.stackId, logicalId], n),
    arn: (service, resource, global = false) =>
      `arn:aws:${service}:${global ? '' : account.region}:${account.accountId}:${resource}`,
    named: (prop, max) => (typeof props[prop] === 'string' ? (props[prop] as string) : defaultName(scope, max)),
  };
  const known = GENERIC[type];
  if (known) return known(naming, scope);
  const id = defaultName(scope);
  const service = type.split('::')[1]?.toLowerCase() ?? 'custom';
  return {
    physicalId: id,
    attributes: { Arn: naming.arn(service, `${(type.split('::')[2] ?? 'resource').toLowerCase()}/${id}`) },
  };
}
