import { EMPTY_STATUS } from './cluster';
import type { Cluster, ClusterStatus, ConfigItems, NodePool, Problem } from './cluster';
import type { WireCluster, WireClusterStatus, WireNodePool } from './wire-cluster-schema';

/**
 * The snake_case wire format of a cluster, shared by `clusters.yaml` (CLM §2.2), the HTTP Cluster Registry
 * API (`Cluster` schema, CLM §2.3) and our DynamoDB registry: the conversion to and from the camelCase `Cluster`.
 * Its zod schemas (what a valid wire cluster is) are in wire-cluster-schema.ts.
 */

/** camelCase model from a validated wire cluster. A missing status is an empty status (CLM would crash). */
export function fromWireCluster(wire: WireCluster): Cluster {
  const status = wire.status;
  return {
    id: wire.id,
    alias: wire.alias,
    localId: wire.local_id,
    apiServerUrl: wire.api_server_url,
    channel: wire.channel,
    configItems: { ...(wire.config_items ?? {}) },
    criticalityLevel: wire.criticality_level,
    environment: wire.environment,
    infrastructureAccount: wire.infrastructure_account,
    lifecycleStatus: wire.lifecycle_status,
    nodePools: (wire.node_pools ?? []).map(fromWireNodePool),
    provider: wire.provider,
    region: wire.region,
    status: status ? fromWireStatus(status) : EMPTY_STATUS,
    ...(wire.owner != null ? { owner: wire.owner } : {}),
    ...(wire.account_name != null ? { accountName: wire.account_name } : {}),
    ...(wire.created_at != null ? { createdAt: wire.created_at } : {}),
  };
}

function fromWireNodePool(wire: WireNodePool): NodePool {
  return {
    name: wire.name,
    profile: wire.profile,
    instanceTypes: [...(wire.instance_types ?? [])],
    discountStrategy: wire.discount_strategy ?? '',
    minSize: wire.min_size,
    maxSize: wire.max_size,
    configItems: { ...(wire.config_items ?? {}) },
  };
}

export function fromWireStatus(wire: NonNullable<WireClusterStatus>): ClusterStatus {
  return {
    currentVersion: wire.current_version ?? '',
    lastVersion: wire.last_version ?? '',
    nextVersion: wire.next_version ?? '',
    problems: (wire.problems ?? []).map((p) => ({
      type: p.type,
      title: p.title,
      ...(p.status != null ? { status: p.status } : {}),
      ...(p.detail != null ? { detail: p.detail } : {}),
      ...(p.instance != null ? { instance: p.instance } : {}),
    })),
  };
}

/** The snake_case document of a cluster (what clusters.yaml, the HTTP API and our DynamoDB table hold). */
export interface WireClusterDocument {
  id: string;
  alias: string;
  local_id: string;
  api_server_url: string;
  channel: string;
  config_items: ConfigItems;
  criticality_level: number;
  environment: string;
  infrastructure_account: string;
  lifecycle_status: string;
  node_pools: WireNodePoolDocument[];
  provider: string;
  region: string;
  status: WireStatusDocument;
  owner?: string;
  account_name?: string;
  created_at?: string;
}

export interface WireNodePoolDocument {
  name: string;
  profile: string;
  instance_types: string[];
  discount_strategy: string;
  min_size: number;
  max_size: number;
  config_items: ConfigItems;
}

export interface WireStatusDocument {
  current_version: string;
  last_version: string;
  next_version: string;
  problems: Problem[];
}

export function toWireCluster(cluster: Cluster): WireClusterDocument {
  return {
    id: cluster.id,
    alias: cluster.alias,
    local_id: cluster.localId,
    api_server_url: cluster.apiServerUrl,
    channel: cluster.channel,
    config_items: { ...cluster.configItems },
    criticality_level: cluster.criticalityLevel,
    environment: cluster.environment,
    infrastructure_account: cluster.infrastructureAccount,
    lifecycle_status: cluster.lifecycleStatus,
    node_pools: cluster.nodePools.map((pool) => ({
      name: pool.name,
      profile: pool.profile,
      instance_types: [...pool.instanceTypes],
      discount_strategy: pool.discountStrategy,
      min_size: pool.minSize,
      max_size: pool.maxSize,
      config_items: { ...pool.configItems },
    })),
    provider: cluster.provider,
    region: cluster.region,
    status: toWireStatus(cluster.status),
    ...(cluster.owner !== undefined ? { owner: cluster.owner } : {}),
    ...(cluster.accountName !== undefined ? { account_name: cluster.accountName } : {}),
    ...(cluster.createdAt !== undefined ? { created_at: cluster.createdAt } : {}),
  };
}

export function toWireStatus(status: ClusterStatus): WireStatusDocument {
  return {
    current_version: status.currentVersion,
    last_version: status.lastVersion,
    next_version: status.nextVersion,
    problems: status.problems.map((p) => ({ ...p })),
  };
}
