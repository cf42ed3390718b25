import { readFile } from 'node:fs/promises';
import yaml from 'js-yaml';
import type { Cluster } from '../../core/model/cluster';
import type { ValuesProvider } from '../../ports/values-provider';
import { ConfigError, ValidationError } from '../../shared/errors';
import { hostedZone } from '../../core/values/hosted-zone';
import { isRecord } from '../../core/config/plain-data';
import { INSTANCE_TYPE_FACTS, collectInstanceTypeFacts } from '../../core/render/instance-info';
import { NO_LOOKUP_DATA, OfflineLookups, parseLookupData } from './offline-lookups';
import { loadBalancerCertificate } from '../../core/values/certificate-match';
import { ETCD_KMS_KEY_ALIAS, managesEtcdStack } from '../../core/render/etcd-settings';
import type { OfflineLookupData } from './offline-lookups';

/**
 * Deploy-time values without AWS (`clm render`, tests): plausible values derived from the cluster, then
 * an optional values file on top. The file (YAML) is either
 *   - a mapping applied to every cluster, or
 *   - `defaults: {...}` for every cluster and/or `clusters: { <cluster id>: {...} }` for one cluster.
 * Keys merge top-level: a cluster's `subnets` replaces the derived `subnets` as a whole.
 * A top-level `lookups:` section (either form) answers what AWS would be asked: AMIs for `amiID`, and instance
 * types beyond the pinned table (offline-lookups.ts). The facts of the cluster's instance types are given as
 * `Values.InstanceTypeFacts`, from which node pools get `Values.InstanceInfo`.
 */
export interface ValuesFile {
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly clusters: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly lookups: OfflineLookupData;
}

export const EMPTY_VALUES_FILE: ValuesFile = { defaults: {}, clusters: {}, lookups: NO_LOOKUP_DATA };

export class StaticValuesProvider implements ValuesProvider {
  /** The same answers for the template helpers (`amiID`, `instanceType*Quantity`). */
  readonly lookups: OfflineLookups;

  constructor(private readonly file: ValuesFile = EMPTY_VALUES_FILE) {
    this.lookups = new OfflineLookups(file.lookups);
  }

  static async fromFile(path: string): Promise<StaticValuesProvider> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new ConfigError(`cannot read the values file: ${(error as Error).message}`, {
        cause: error,
        location: { file: path },
      });
    }
    return new StaticValuesProvider(parseValuesFile(text, path));
  }

  async clusterValues(cluster: Cluster): Promise<Record<string, unknown>> {
    const lookups = this.lookups;
    const { certificates, kmsAliases } = this.file.lookups;
    const accountId = cluster.infrastructureAccount.replace(/^aws:/, '');
    return {
      ...offlineValues(cluster),
      ...(cluster.configItems.load_balancer_certificate
        ? { load_balancer_certificate: cluster.configItems.load_balancer_certificate }
        : certificates
          ? {
              load_balancer_certificate: loadBalancerCertificate(
                certificates,
                cluster.apiServerUrl,
                Date.now(),
                cluster.id,
              ),
            }
          : {}),
      ...(managesEtcdStack(cluster)
        ? {
            etcd_kms_key_arn:
              kmsAliases[ETCD_KMS_KEY_ALIAS] ?? `arn:aws:kms:${cluster.region}:${accountId}:key/offline-render-etcd`,
          }
        : {}),
      [INSTANCE_TYPE_FACTS]: await collectInstanceTypeFacts(cluster, (type) => lookups.instanceType(type)),
      ...this.file.defaults,
      ...(this.file.clusters[cluster.id] ?? {}),
    };
  }

  /** Cluster ids the file names that are not among `known` (likely typos). */
  unknownClusterIds(known: readonly string[]): string[] {
    return Object.keys(this.file.clusters).filter((id) => !known.includes(id));
  }
}

export function parseValuesFile(text: string, file: string): ValuesFile {
  let doc: unknown;
  try {
    doc = yaml.load(text, { filename: file });
  } catch (error) {
    const line = error instanceof yaml.YAMLException && error.mark ? error.mark.line + 1 : undefined;
    throw new ConfigError(`invalid YAML: ${error instanceof yaml.YAMLException ? error.reason : String(error)}`, {
      cause: error,
      location: { file, line },
    });
  }
  if (doc === undefined || doc === null) return EMPTY_VALUES_FILE;
  if (!isRecord(doc))
    throw new ValidationError(
      `${file}: a values file is a mapping (values for all clusters, or defaults: and clusters:)`,
    );
  const issues: string[] = [];
  const { lookups: rawLookups, ...rest } = doc;
  const lookups = parseLookupData(rawLookups, file, issues);
  if (!('defaults' in rest) && !('clusters' in rest)) {
    if (issues.length) throw new ValidationError(`${file}: invalid values file`, { issues });
    return { defaults: rest, clusters: {}, lookups };
  }
  const extra = Object.keys(rest).filter((key) => key !== 'defaults' && key !== 'clusters');
  if (extra.length)
    issues.push(
      `${file}: unknown key${extra.length > 1 ? 's' : ''} ${extra.join(', ')} next to defaults/clusters/lookups (put shared values under defaults:)`,
    );
  const defaults = rest.defaults ?? {};
  if (!isRecord(defaults)) issues.push(`${file}: defaults must be a mapping of value names to values`);
  const clusters = rest.clusters ?? {};
  if (!isRecord(clusters)) issues.push(`${file}: clusters must be a mapping of cluster ids to values`);
  else
    for (const [id, values] of Object.entries(clusters))
      if (!isRecord(values)) issues.push(`${file}: clusters.${id} must be a mapping of value names to values`);
  if (issues.length) throw new ValidationError(`${file}: invalid values file`, { issues });
  return {
    defaults: defaults as Record<string, unknown>,
    clusters: clusters as Record<string, Record<string, unknown>>,
    lookups,
  };
}

/**
 * What AWS would give, made up from the cluster alone: a VPC `vpc-offline-render`, zones a/b/c of the region (or the cluster's
 * `availability_zones` item), one `subnet-<az>` per zone, the hosted zone from the API server URL, a
 * 10.0.0.0/16 VPC, no stack outputs yet (`ClusterStackOutputs: {}`), and the placeholder certificate ARN
 * `…:certificate/offline-render` unless the values file's `lookups.certificates` gives the account's certificates.
 */
export function offlineValues(cluster: Cluster): Record<string, unknown> {
  const configured = (cluster.configItems.availability_zones ?? '')
    .split(',')
    .map((az) => az.trim())
    .filter(Boolean);
  const zones = (
    configured.length ? [...new Set(configured)] : ['a', 'b', 'c'].map((suffix) => `${cluster.region}${suffix}`)
  ).sort();
  const subnets = (prefix: string): Record<string, string> => {
    const byZone = Object.fromEntries(zones.map((az) => [az, `${prefix}-${az}`]));
    return { ...byZone, '*': Object.values(byZone).join(',') };
  };
  const accountId = cluster.infrastructureAccount.replace(/^aws:/, '');
  return {
    vpc_id: 'vpc-offline-render',
    availability_zones: zones,
    subnets: subnets('subnet'),
    lb_subnets: subnets('subnet-lb'),
    internal_node_subnets: subnets('subnet-internal'),
    pod_subnets: subnets('subnet-pod'),
    subnet_ipv6_cidrs: '',
    hosted_zone: hostedZone(cluster.apiServerUrl),
    load_balancer_certificate: `arn:aws:acm:${cluster.region}:${accountId}:certificate/offline-render`,
    vpc_ipv4_cidr: '10.0.0.0/16',
    vpc_ipv6_cidrs: '',
    ClusterStackOutputs: {},
  };
}
