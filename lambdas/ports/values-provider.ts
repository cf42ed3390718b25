import type { Cluster } from '../core/model/cluster';

/**
 * Values known only at deploy time (CLM §4.3): subnets, availability_zones, vpc CIDRs, hosted_zone,
 * load_balancer_certificate... In AWS they come from EC2/ACM; offline from `--values FILE` or the simulated account.
 * `ClusterStackOutputs`, `UserData`, `S3GeneratedFilesPath` are added by the rendering pipeline itself.
 */
export interface ValuesProvider {
  clusterValues(cluster: Cluster): Promise<Record<string, unknown>>;
}
