/**
 * Deploy-time values from EC2 (CLM §6.2 steps 4–6): the VPC, its subnets per role and zone, CIDRs and the hosted zone.
 *
 * - VPC: config item `vpc_id`, else the only VPC of the region, else the default one, else a ConfigError.
 * - Subnets: all of the VPC minus those tagged `zalando.org/custom-subnet`; config item `subnets` (comma list) keeps
 *   exactly those and fails naming any that is missing.
 * - Per role tag (`kubernetes.io/role/elb`, `/node`, `/internal-node`, `/pod`), one subnet per zone: a tagged one wins,
 *   then the lexicographically smallest id. Config item `availability_zones` restricts the elb, node and internal-node
 *   selections (not pod); zones it lists without a subnet are dropped, as in CLM.
 * - Every subnet map carries `*` → comma list of its subnets in zone order (CLM's `SubnetsByAZ`).
 *
 * - `InstanceTypeFacts`: DescribeInstanceTypes of the pools' instance types (through the CloudLookups port), from which
 *   node pools get CLM's `Values.InstanceInfo`.
 *
 * - `load_balancer_certificate`: the ISSUED ACM certificate that best matches the API server's host (CLM §6.2 step 6,
 *   kube-ingress-aws-controller's matching: core/values/certificate-match.ts), each verified against the platform's
 *   trusted roots (Node's bundled list plus the PEM file `NODE_EXTRA_CA_CERTS` names, the way Go reads the system's);
 *   none matching is a ConfigError naming the host. The config item of that name, when set, is taken as it is.
 * - `etcd_kms_key_arn` (clusters with `manage_etcd_stack: "true"`): KMS DescribeKey of `alias/etcd-cluster`.
 *
 * CLM writes the discovered `vpc_id` and `subnets` back into the cluster's config items; this provider returns
 * `vpc_id` as a value and `subnets['*']` carries the comma list, for the caller to copy.
 */
import { DescribeVpcsCommand, paginateDescribeSubnets } from './ec2-api';
import type { EC2Client, Subnet, Vpc } from '@aws-sdk/client-ec2';
import type { ACMClient } from '@aws-sdk/client-acm';
import type { KMSClient } from '@aws-sdk/client-kms';
import { acmCertificates } from './acm-certificates';
import { describeKeyArn } from './kms-keys';
import { loadBalancerCertificate } from '../../core/values/certificate-match';
import { ETCD_KMS_KEY_ALIAS, managesEtcdStack } from '../../core/render/etcd-settings';
import type { Cluster } from '../../core/model/cluster';
import type { ValuesProvider } from '../../ports/values-provider';
import { ConfigError } from '../../shared/errors';
import { toClmError } from './aws-errors';
import { hostedZone } from '../../core/values/hosted-zone';
import { INSTANCE_TYPE_FACTS, collectInstanceTypeFacts } from '../../core/render/instance-info';
import type { CloudLookups } from '../../ports/template-engine';

export const CUSTOM_SUBNET_TAG = 'zalando.org/custom-subnet';
export const SUBNET_ROLE_TAGS = {
  lb: 'kubernetes.io/role/elb',
  node: 'kubernetes.io/role/node',
  internalNode: 'kubernetes.io/role/internal-node',
  pod: 'kubernetes.io/role/pod',
} as const;

export interface AwsValuesOptions {
  /** The certificates for `load_balancer_certificate`. @default - only the config item of that name */
  readonly acm?: ACMClient;
  /** The etcd stack's key alias; required for clusters managing an etcd stack. */
  readonly kms?: KMSClient;
  /** Trusted roots (PEM) a certificate must chain to. @default - the platform's (acm-certificates.ts) */
  readonly trustedRoots?: readonly string[];
}

export class AwsValuesProvider implements ValuesProvider {
  private readonly ec2: EC2Client;
  private readonly lookups?: CloudLookups;
  private readonly options: AwsValuesOptions;

  /** `lookups` (DescribeInstanceTypes) gives the facts of the pools' instance types, for `Values.InstanceInfo`. */
  constructor(ec2: EC2Client, lookups?: CloudLookups, options: AwsValuesOptions = {}) {
    this.ec2 = ec2;
    this.lookups = lookups;
    this.options = options;
  }

  async clusterValues(cluster: Cluster): Promise<Record<string, unknown>> {
    const location = { clusterId: cluster.id };
    const vpc = await this.findVpc(cluster);
    const vpcId = vpc.VpcId ?? '';
    let subnets = (await this.subnetsOf(vpcId)).filter((s) => !hasTag(s, CUSTOM_SUBNET_TAG));

    const wanted = commaList(cluster.configItems.subnets);
    if (wanted.length > 0) {
      const missing = wanted.filter((id) => !subnets.some((s) => s.SubnetId === id));
      if (missing.length > 0) {
        throw new ConfigError(
          `config item subnets lists ${missing.join(', ')}, not (non-custom) subnets of VPC ${vpcId}`,
          { location: { ...location, field: 'config_items.subnets' } },
        );
      }
      subnets = subnets.filter((s) => wanted.includes(s.SubnetId ?? ''));
    }

    const zones = commaList(cluster.configItems.availability_zones);
    const restrict = (byZone: Map<string, Subnet>) =>
      zones.length > 0 ? new Map([...byZone].filter(([az]) => zones.includes(az))) : byZone;
    const nodes = restrict(selectPerZone(subnets, SUBNET_ROLE_TAGS.node));
    const values: Record<string, unknown> = {
      vpc_id: vpcId,
      vpc_ipv4_cidr: vpc.CidrBlock ?? '',
      vpc_ipv6_cidrs: (vpc.Ipv6CidrBlockAssociationSet ?? [])
        .flatMap((a) => (a.Ipv6CidrBlock ? [a.Ipv6CidrBlock] : []))
        .join(','),
      subnets: subnetMap(nodes),
      availability_zones: [...nodes.keys()].sort(),
      subnet_ipv6_cidrs: [...nodes.values()]
        .flatMap((s) =>
          (s.Ipv6CidrBlockAssociationSet ?? []).flatMap((a) => (a.Ipv6CidrBlock ? [a.Ipv6CidrBlock] : [])),
        )
        .join(','),
      lb_subnets: subnetMap(restrict(selectPerZone(subnets, SUBNET_ROLE_TAGS.lb))),
      internal_node_subnets: subnetMap(restrict(selectPerZone(subnets, SUBNET_ROLE_TAGS.internalNode))),
      pod_subnets: subnetMap(selectPerZone(subnets, SUBNET_ROLE_TAGS.pod)),
      hosted_zone: hostedZone(cluster.apiServerUrl),
    };
    Object.assign(values, await this.certificateAndKeys(cluster));
    const lookups = this.lookups;
    if (lookups)
      values[INSTANCE_TYPE_FACTS] = await collectInstanceTypeFacts(cluster, (type) => lookups.instanceType(type));
    return values;
  }

  /** `load_balancer_certificate` (ACM, unless the config item gives it) and `etcd_kms_key_arn` (KMS) when managed. */
  private async certificateAndKeys(cluster: Cluster): Promise<Record<string, string>> {
    const found: Record<string, string> = {};
    const location = { clusterId: cluster.id };
    const { acm, kms, trustedRoots } = this.options;
    if (cluster.configItems.load_balancer_certificate)
      found.load_balancer_certificate = cluster.configItems.load_balancer_certificate;
    else if (acm) {
      const now = Date.now();
      const certificates = await acmCertificates(acm, cluster.apiServerUrl, now, trustedRoots);
      found.load_balancer_certificate = loadBalancerCertificate(certificates, cluster.apiServerUrl, now, cluster.id);
    }
    if (managesEtcdStack(cluster)) found.etcd_kms_key_arn = await describeKeyArn(kms!, ETCD_KMS_KEY_ALIAS, location);
    return found;
  }

  private async findVpc(cluster: Cluster): Promise<Vpc> {
    const configured = cluster.configItems.vpc_id;
    let vpcs: Vpc[];
    try {
      vpcs = (await this.ec2.send(new DescribeVpcsCommand(configured ? { VpcIds: [configured] } : {}))).Vpcs ?? [];
    } catch (error) {
      if (configured && /InvalidVpcID/.test((error as Error).name ?? '')) {
        throw new ConfigError(`config item vpc_id: VPC ${configured} does not exist in ${cluster.region}`, {
          cause: error,
          location: { clusterId: cluster.id, field: 'config_items.vpc_id' },
        });
      }
      throw toClmError(error, `EC2 DescribeVpcs${configured ? ` ${configured}` : ''} (cluster ${cluster.id})`);
    }
    if (configured) {
      if (vpcs[0]) return vpcs[0];
      throw new ConfigError(`config item vpc_id: VPC ${configured} does not exist in ${cluster.region}`, {
        location: { clusterId: cluster.id, field: 'config_items.vpc_id' },
      });
    }
    if (vpcs.length === 1) return vpcs[0];
    const fallback = vpcs.find((v) => v.IsDefault);
    if (fallback) return fallback;
    throw new ConfigError(
      `cannot choose a VPC in ${cluster.region}: found ${vpcs.length} and none is the default; set config item vpc_id`,
      { location: { clusterId: cluster.id } },
    );
  }

  private async subnetsOf(vpcId: string): Promise<Subnet[]> {
    const subnets: Subnet[] = [];
    try {
      for await (const page of paginateDescribeSubnets(
        { client: this.ec2 },
        { Filters: [{ Name: 'vpc-id', Values: [vpcId] }] },
      )) {
        subnets.push(...(page.Subnets ?? []));
      }
    } catch (error) {
      throw toClmError(error, `EC2 DescribeSubnets vpc-id=${vpcId}`);
    }
    return subnets;
  }
}

/** One subnet per zone for a role tag: tagged beats untagged, then the smallest id (CLM `selectSubnetIDs`). */
export function selectPerZone(subnets: readonly Subnet[], roleTag: string): Map<string, Subnet> {
  const best = new Map<string, Subnet>();
  for (const subnet of subnets) {
    const az = subnet.AvailabilityZone ?? '';
    const current = best.get(az);
    if (!current) {
      best.set(az, subnet);
      continue;
    }
    const tagged = hasTag(subnet, roleTag);
    if (tagged !== hasTag(current, roleTag)) {
      if (tagged) best.set(az, subnet);
      continue;
    }
    if ((subnet.SubnetId ?? '') < (current.SubnetId ?? '')) best.set(az, subnet);
  }
  return best;
}

/** AZ → subnet id, plus `*` → the ids in zone order. */
function subnetMap(byZone: ReadonlyMap<string, Subnet>): Record<string, string> {
  const zones = [...byZone.keys()].sort();
  const map: Record<string, string> = {};
  for (const az of zones) map[az] = byZone.get(az)?.SubnetId ?? '';
  map['*'] = zones.map((az) => map[az]).join(',');
  return map;
}

function hasTag(subnet: Subnet, key: string): boolean {
  return (subnet.Tags ?? []).some((t) => t.Key === key);
}

function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
