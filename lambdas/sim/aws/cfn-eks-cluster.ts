import { hashOf } from '../hash';
import { CfnEvalError } from './cfn-intrinsics';
import type { Props, Provisioned, ResourceScope } from './cfn-resource-scope';
import { defaultName, upperId } from './cfn-resource-scope';
import { subnetZone, VPC_CIDR } from './account';

/**
 * `AWS::EKS::Cluster`: an EKS control plane in the account, with EKS's rules for what CloudFormation passes on:
 * `RoleArn` and `ResourcesVpcConfig.SubnetIds` are required, the subnets must exist and lie in at least two AZs, the
 * name is 1–100 letters, digits, `-` and `_` starting with a letter or digit; `KubernetesNetworkConfig.IpFamily` is
 * ipv4 (default) or ipv6; a `ServiceIpv4Cidr` must be a private /12–/24 that does not overlap the VPC, and without
 * one EKS takes 172.20.0.0/16 (the VPC is in 10.0.0.0/8). Its endpoint, CA and OIDC issuer are derived from the
 * account and the name, the same in every run; DescribeCluster reads them (aws/eks.ts).
 */
export function eksClusterResource(scope: ResourceScope, props: Props): Provisioned {
  const { account } = scope;
  const name = typeof props.Name === 'string' ? props.Name : defaultName(scope, 100);
  if (!/^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/.test(name))
    throw new CfnEvalError(
      `Properties validation failed: Name "${name}" must be 1-100 characters of letters, digits, - and _, starting with a letter or digit`,
    );
  if (typeof props.RoleArn !== 'string' || !props.RoleArn.startsWith('arn:aws:iam::'))
    throw new CfnEvalError('Properties validation failed: required key [RoleArn] not found or not an IAM role ARN');
  const vpcConfig = (props.ResourcesVpcConfig ?? undefined) as Props | undefined;
  const subnetIds = vpcConfig?.SubnetIds;
  if (!Array.isArray(subnetIds) || subnetIds.length === 0)
    throw new CfnEvalError('Properties validation failed: required key [ResourcesVpcConfig.SubnetIds] not found');
  const zones = new Set<string>();
  for (const id of subnetIds) {
    const zone = typeof id === 'string' ? subnetZone(account, id) : undefined;
    if (!zone) throw new CfnEvalError(`InvalidParameterException: The subnet ID '${String(id)}' does not exist`);
    zones.add(zone);
  }
  if (zones.size < 2)
    throw new CfnEvalError(
      'InvalidParameterException: Subnets specified must be in at least two different AZs (UnsupportedAvailabilityZoneException)',
    );
  const network = (props.KubernetesNetworkConfig ?? {}) as Props;
  const ipFamily = network.IpFamily ?? 'ipv4';
  if (ipFamily !== 'ipv4' && ipFamily !== 'ipv6')
    throw new CfnEvalError(`InvalidParameterException: IpFamily must be ipv4 or ipv6, got ${String(ipFamily)}`);
  const serviceIpv4Cidr = network.ServiceIpv4Cidr === undefined ? '172.20.0.0/16' : String(network.ServiceIpv4Cidr);
  checkServiceCidr(serviceIpv4Cidr);
  const hex = (n: number, ...more: string[]) => hashOf([account.key, 'eks', name, ...more], n);
  const id = upperId([account.key, 'eks', name], 32);
  const serviceIpv6Cidr = ipFamily === 'ipv6' ? `fd${hex(2, 'v6')}:${hex(4, 'v6a')}:${hex(4, 'v6b')}::/108` : '';
  const certificateAuthorityData = Buffer.from(
    `-----BEGIN CERTIFICATE-----\n${Buffer.from(`kubernetes CA of ${account.key} ${name} ${hex(32, 'ca')}`).toString('base64')}\n-----END CERTIFICATE-----\n`,
  ).toString('base64');
  const endpoint = `https://${id}.gr7.${account.region}.eks.amazonaws.com`;
  const issuer = `https://oidc.eks.${account.region}.amazonaws.com/id/${id}`;
  return {
    physicalId: name,
    attributes: {
      Arn: `arn:aws:eks:${account.region}:${account.accountId}:cluster/${name}`,
      Endpoint: endpoint,
      CertificateAuthorityData: certificateAuthorityData,
      OpenIdConnectIssuerUrl: issuer,
      ClusterSecurityGroupId: `sg-${hex(17, 'sg')}`,
      Id: id,
      ...(serviceIpv6Cidr ? { 'KubernetesNetworkConfig.ServiceIpv6Cidr': serviceIpv6Cidr } : {}),
    },
    model: {
      ipFamily: String(ipFamily),
      serviceIpv4Cidr,
      ...(serviceIpv6Cidr ? { serviceIpv6Cidr } : {}),
      version: typeof props.Version === 'string' ? props.Version : '1.31',
    },
  };
}

const PRIVATE_RANGES: readonly (readonly [number, number])[] = [
  [ipNumber('10.0.0.0'), 8],
  [ipNumber('172.16.0.0'), 12],
  [ipNumber('192.168.0.0'), 16],
];

function ipNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function within(ip: number, [base, bits]: readonly [number, number]): boolean {
  const size = 2 ** (32 - bits);
  return ip >= base && ip < base + size;
}

/** EKS: a private block, /12 to /24, not overlapping the VPC. */
function checkServiceCidr(cidr: string): void {
  const match = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(cidr);
  const bits = match ? Number(match[2]) : NaN;
  const ip = match ? ipNumber(match[1]!) : NaN;
  const [vpcIp, vpcBits] = VPC_CIDR.split('/');
  const vpc: readonly [number, number] = [ipNumber(vpcIp!), Number(vpcBits)];
  const overlaps = within(ip, vpc) || within(vpc[0], [ip, bits]);
  if (!match || bits < 12 || bits > 24 || !PRIVATE_RANGES.some((r) => within(ip, r)) || overlaps)
    throw new CfnEvalError(
      `InvalidParameterException: ServiceIpv4Cidr ${cidr} must be a private block (10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16) between /12 and /24 that does not overlap the VPC ${VPC_CIDR}`,
    );
}
