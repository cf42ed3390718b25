import { awsAccountId } from '../../core/model/cluster';
import type { Cluster } from '../../core/model/cluster';
import type { ValuesProvider } from '../../ports/values-provider';
import { ConfigError } from '../../shared/errors';
import { ensureAccount } from '../aws/account';
import type { SimContext } from '../sim-context';
import type { AccountState, SubnetRole, SubnetState } from '../world-state';
import { instrument } from './instrument';
import { hostedZone } from '../../core/values/hosted-zone';
import { INSTANCE_TYPE_FACTS, asgInstanceTypes } from '../../core/render/instance-info';
import { INSTANCE_TYPES } from './sim-lookups';
import { loadBalancerCertificate } from '../../core/values/certificate-match';
import { managesEtcdStack } from '../../core/render/etcd-settings';
import { etcdKeyArn, simCertificates } from '../aws/certificates';

/**
 * The deploy-time values of the simulated account (CLM §4.3, §6.2 steps 4–7): the VPC, per-role subnets
 * by AZ (with `*` listing them all), AZs, the hosted zone, the ACM certificate best matching the API server's host
 * (aws/certificates.ts) and, for a cluster managing its etcd stack, the key `alias/etcd-cluster` names. Honours the cluster
 * config items `vpc_id`, `subnets` and `availability_zones` like CLM does, and the facts of the pools' instance
 * types (`InstanceTypeFacts`, for Values.InstanceInfo) from the instance types the account offers.
 */
/**
 * `load_balancer_certificate` from the account's certificates, unless the config item of that name gives it (as the
 * AWS values provider does); `etcd_kms_key_arn` when the cluster manages etcd.
 */
function certificateAndKeys(ctx: SimContext, account: AccountState, cluster: Cluster): Record<string, string> {
  const given = cluster.configItems.load_balancer_certificate;
  return {
    load_balancer_certificate:
      given ||
      loadBalancerCertificate(
        simCertificates(ctx, account, cluster.apiServerUrl),
        cluster.apiServerUrl,
        ctx.now,
        cluster.id,
      ),
    ...(managesEtcdStack(cluster) ? { etcd_kms_key_arn: etcdKeyArn(ctx, account, cluster.id) } : {}),
  };
}

export function simValues(ctx: SimContext, clusterId?: string): ValuesProvider {
  return instrument<ValuesProvider>(ctx, 'values', clusterId, {
    clusterValues(cluster: Cluster) {
      const account = ensureAccount(ctx, awsAccountId(cluster.infrastructureAccount), cluster.region);
      const location = { clusterId: cluster.id };
      const items = cluster.configItems;
      if (items.vpc_id && items.vpc_id !== account.vpc.id)
        throw new ConfigError(`VPC ${items.vpc_id} not found (the simulated account has ${account.vpc.id})`, {
          location: { ...location, field: 'config_items.vpc_id' },
        });
      let subnets: readonly SubnetState[] = account.subnets;
      if (items.subnets) {
        const wanted = items.subnets
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const missing = wanted.filter((id) => !subnets.some((s) => s.id === id));
        if (missing.length > 0)
          throw new ConfigError(`subnets not found in ${account.vpc.id}: ${missing.join(', ')}`, {
            location: { ...location, field: 'config_items.subnets' },
          });
        subnets = subnets.filter((s) => wanted.includes(s.id));
      }
      const zones = items.availability_zones ? items.availability_zones.split(',').map((z) => z.trim()) : undefined;
      const byRole = (role: SubnetRole): Record<string, string> => {
        const chosen = subnets
          .filter((s) => s.role === role && (!zones || zones.includes(s.az)))
          .sort((a, b) => (a.az < b.az ? -1 : 1));
        const map: Record<string, string> = Object.fromEntries(chosen.map((s) => [s.az, s.id]));
        return chosen.length > 0 ? { ...map, '*': chosen.map((s) => s.id).join(',') } : {};
      };
      const nodeSubnets = byRole('node');
      return {
        vpc_id: account.vpc.id,
        vpc_ipv4_cidr: account.vpc.cidr,
        vpc_ipv6_cidrs: '',
        subnets: nodeSubnets,
        availability_zones: Object.keys(nodeSubnets)
          .filter((key) => key !== '*')
          .sort(),
        subnet_ipv6_cidrs: '',
        lb_subnets: byRole('elb'),
        internal_node_subnets: byRole('internal-node'),
        pod_subnets: {},
        hosted_zone: hostedZone(cluster.apiServerUrl),
        ...certificateAndKeys(ctx, account, cluster),
        [INSTANCE_TYPE_FACTS]: Object.fromEntries(
          asgInstanceTypes(cluster).flatMap((type) =>
            INSTANCE_TYPES.has(type) ? [[type, INSTANCE_TYPES.get(type)]] : [],
          ),
        ),
      };
    },
  });
}
