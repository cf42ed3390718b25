import { z } from 'zod';
import { EMPTY_STATUS, isKarpenterPool, LIFECYCLE_STATUSES, PROVIDERS } from './cluster';
import type { Cluster, ClusterStatus, ConfigItems, NodePool, Problem } from './cluster';

/**
 * The snake_case wire format of a cluster, shared by `clusters.yaml` (CLM §2.2), the HTTP Cluster Registry
 * API (`Cluster` schema, CLM §2.3) and our DynamoDB registry, with its zod schemas and the conversion to
 * and from the camelCase `Cluster`.
 *
 * Two modes: `strict` (files people type: unknown fields are errors, with "did you mean") and `lenient`
 * (what a server returns: unknown fields are ignored, so a registry that grows a field does not stop us).
 * Every other rule is the same in both modes.
 */

/** Path pattern of `cluster_id` in the registry API. */
export const CLUSTER_ID_PATTERN = /^[a-z][a-z0-9-:]*[a-z0-9]$/;
export const ALIAS_PATTERN = /^[a-z][a-z0-9-]*[a-z0-9]$/;
export const NODE_POOL_NAME_PATTERN = /^[a-z][a-z0-9-]*[a-z0-9]$/;
/** `config_key` in the registry API: lowercase, digits and underscores, no dashes. */
export const CONFIG_KEY_PATTERN = /^[a-z][a-z0-9_]*[a-z0-9]$/;
export const INFRASTRUCTURE_ACCOUNT_PATTERN = /^aws:\d{12}$/;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

export type WireMode = 'strict' | 'lenient';

/** The known keys per level, for unknown-field messages. */
export const WIRE_KEYS = {
  cluster: [
    'id',
    'alias',
    'local_id',
    'api_server_url',
    'channel',
    'config_items',
    'criticality_level',
    'environment',
    'infrastructure_account',
    'lifecycle_status',
    'node_pools',
    'provider',
    'region',
    'status',
    'owner',
    'account_name',
    'created_at',
  ],
  nodePool: ['name', 'profile', 'instance_types', 'discount_strategy', 'min_size', 'max_size', 'config_items'],
  status: ['current_version', 'last_version', 'next_version', 'problems'],
  problem: ['type', 'title', 'status', 'detail', 'instance'],
} as const;

function schemas(mode: WireMode) {
  const object = mode === 'strict' ? z.strictObject : z.object;
  const configItems = z
    .record(
      z
        .string()
        .regex(
          CONFIG_KEY_PATTERN,
          `config item keys must match ${CONFIG_KEY_PATTERN.source} (lowercase letters, digits, underscores)`,
        ),
      z.string(),
    )
    .nullish();
  const nonEmpty = z.string().min(1, 'must not be empty');
  const size = z.number().int().min(0, 'must be 0 or more');

  const problem = object({
    type: z.string(),
    title: z.string(),
    status: z.number().int().nullish(),
    detail: z.string().nullish(),
    instance: z.string().nullish(),
  });
  const status = object({
    current_version: z.string().nullish(),
    last_version: z.string().nullish(),
    next_version: z.string().nullish(),
    problems: z.array(problem).nullish(),
  });
  const nodePool = object({
    name: z
      .string()
      .regex(NODE_POOL_NAME_PATTERN, `must match ${NODE_POOL_NAME_PATTERN.source} (lowercase letters, digits, dashes)`),
    profile: nonEmpty,
    instance_types: z.array(nonEmpty).nullish(),
    discount_strategy: z.string().nullish(),
    min_size: size,
    max_size: size,
    config_items: configItems,
  });
  const cluster = object({
    id: z
      .string()
      .regex(CLUSTER_ID_PATTERN, `must match ${CLUSTER_ID_PATTERN.source}, e.g. aws:123456789012:eu-central-1:kube-1`),
    alias: z.string().regex(ALIAS_PATTERN, `must match ${ALIAS_PATTERN.source} (lowercase letters, digits, dashes)`),
    local_id: nonEmpty,
    api_server_url: z.string().refine(isAbsoluteUrl, 'must be an absolute URL, e.g. https://kube-1.example.org'),
    channel: nonEmpty,
    config_items: configItems,
    criticality_level: z.number().int().min(INT32_MIN).max(INT32_MAX),
    environment: nonEmpty,
    infrastructure_account: z
      .string()
      .regex(INFRASTRUCTURE_ACCOUNT_PATTERN, 'must be aws:<12-digit account id>, e.g. aws:123456789012'),
    lifecycle_status: z.enum(LIFECYCLE_STATUSES),
    node_pools: z.array(nodePool).nullish(),
    provider: z.enum(PROVIDERS),
    region: nonEmpty,
    status: status.nullish(),
    owner: z.string().nullish(),
    account_name: z.string().nullish(),
    created_at: z.string().nullish(),
  }).superRefine((c, ctx) => checkNodePools(c.node_pools ?? [], ctx));
  return { cluster, nodePool, status, problem };
}

type Schemas = ReturnType<typeof schemas>;
export type WireCluster = z.infer<Schemas['cluster']>;
export type WireNodePool = z.infer<Schemas['nodePool']>;
export type WireClusterStatus = z.infer<Schemas['status']>;

const SCHEMAS: Record<WireMode, Schemas> = { strict: schemas('strict'), lenient: schemas('lenient') };

/** The zod schema of one cluster in the given mode (for callers that compose it, e.g. a server). */
export function wireClusterSchema(mode: WireMode): Schemas['cluster'] {
  return SCHEMAS[mode].cluster;
}

function checkNodePools(pools: readonly WireNodePool[], ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  pools.forEach((pool, index) => {
    const types = pool.instance_types ?? [];
    if (types.length === 0 && !isKarpenterPool(pool)) {
      ctx.addIssue({
        code: 'custom',
        path: ['node_pools', index, 'instance_types'],
        message: `pool ${pool.name} (profile ${pool.profile}) needs at least one instance type; only worker-karpenter pools may have none`,
      });
    }
    const duplicates = types.filter((type, i) => types.indexOf(type) !== i);
    if (duplicates.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['node_pools', index, 'instance_types'],
        message: `duplicate instance types: ${[...new Set(duplicates)].join(', ')}`,
      });
    }
    if (pool.min_size > pool.max_size) {
      ctx.addIssue({
        code: 'custom',
        path: ['node_pools', index, 'min_size'],
        message: `min_size ${pool.min_size} is larger than max_size ${pool.max_size}`,
      });
    }
    const first = seen.get(pool.name);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['node_pools', index, 'name'],
        message: `duplicate node pool name ${pool.name} (also node_pools[${first}])`,
      });
    } else {
      seen.set(pool.name, index);
    }
  });
}

function isAbsoluteUrl(value: string): boolean {
  try {
    return new URL(value).host !== '';
  } catch {
    return false;
  }
}

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
