import * as z from '../../shared/zod';
import { MAX_NODE_POOLS } from '../../contracts/status';
import { isKarpenterPool, LIFECYCLE_STATUSES, PROVIDERS } from './cluster';

/**
 * The zod schemas of the snake_case wire format of a cluster (see cluster-wire.ts), shared by `clusters.yaml`
 * (CLM §2.2), the HTTP Cluster Registry API (`Cluster` schema, CLM §2.3) and our DynamoDB registry.
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

type ObjectFactory = typeof z.object | typeof z.strictObject;

const configItems = z.nullish(
  z.record(
    z
      .string()
      .check(
        z.regex(
          CONFIG_KEY_PATTERN,
          `config item keys must match ${CONFIG_KEY_PATTERN.source} (lowercase letters, digits, underscores)`,
        ),
      ),
    z.string(),
  ),
);
const nonEmpty = z.string().check(z.minLength(1, 'must not be empty'));
const size = z.number().check(z.int(), z.minimum(0, 'must be 0 or more'));

function statusSchema(object: ObjectFactory) {
  const problem = object({
    type: z.string(),
    title: z.string(),
    status: z.nullish(z.number().check(z.int())),
    detail: z.nullish(z.string()),
    instance: z.nullish(z.string()),
  });
  return object({
    current_version: z.nullish(z.string()),
    last_version: z.nullish(z.string()),
    next_version: z.nullish(z.string()),
    problems: z.nullish(z.array(problem)),
  });
}

function nodePoolSchema(object: ObjectFactory) {
  return object({
    name: z
      .string()
      .check(
        z.regex(
          NODE_POOL_NAME_PATTERN,
          `must match ${NODE_POOL_NAME_PATTERN.source} (lowercase letters, digits, dashes)`,
        ),
      ),
    profile: nonEmpty,
    instance_types: z.nullish(z.array(nonEmpty)),
    discount_strategy: z.nullish(z.enum(DISCOUNT_STRATEGIES)),
    min_size: size,
    max_size: size,
    config_items: configItems,
  });
}

/** CLM's discount strategies (`IsSpot`: spot, spot_max_price). */
const DISCOUNT_STRATEGIES = ['none', 'spot', 'spot_max_price'] as const;
/** local_id is part of every stack name: CloudFormation's stack-name rule, kept short enough for the suffixes. */
const LOCAL_ID_PATTERN = /^[A-Za-z][-A-Za-z0-9]{0,63}$/;

function schemas(mode: WireMode) {
  const object = mode === 'strict' ? z.strictObject : z.object;
  const status = statusSchema(object);
  const nodePool = nodePoolSchema(object);
  const cluster = object({
    id: z
      .string()
      .check(
        z.regex(
          CLUSTER_ID_PATTERN,
          `must match ${CLUSTER_ID_PATTERN.source}, e.g. aws:123456789012:eu-central-1:kube-1`,
        ),
      ),
    alias: z
      .string()
      .check(z.regex(ALIAS_PATTERN, `must match ${ALIAS_PATTERN.source} (lowercase letters, digits, dashes)`)),
    local_id: z
      .string()
      .check(
        z.regex(
          LOCAL_ID_PATTERN,
          `must match ${LOCAL_ID_PATTERN.source}: it names CloudFormation stacks, which take letters, digits and dashes, starting with a letter`,
        ),
      ),
    api_server_url: z
      .string()
      .check(z.refine(isAbsoluteUrl, 'must be an absolute URL, e.g. https://kube-1.example.org')),
    channel: nonEmpty,
    config_items: configItems,
    criticality_level: z.number().check(z.int(), z.minimum(INT32_MIN), z.maximum(INT32_MAX)),
    environment: nonEmpty,
    infrastructure_account: z
      .string()
      .check(z.regex(INFRASTRUCTURE_ACCOUNT_PATTERN, 'must be aws:<12-digit account id>, e.g. aws:123456789012')),
    lifecycle_status: z.enum(LIFECYCLE_STATUSES),
    // Bounded: one roll Map takes every pool, and an execution's history must stay bounded (LOOP_CAPS).
    node_pools: z.nullish(
      z.array(nodePool).check(z.maxLength(MAX_NODE_POOLS, `at most ${MAX_NODE_POOLS} node pools per cluster`)),
    ),
    provider: z.enum(PROVIDERS),
    region: nonEmpty,
    status: z.nullish(status),
    owner: z.nullish(z.string()),
    account_name: z.nullish(z.string()),
    created_at: z.nullish(z.string()),
  }).check(z.superRefine((c, ctx) => checkNodePools(c.node_pools ?? [], ctx)));
  return { cluster, nodePool, status };
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

function checkNodePools(pools: readonly WireNodePool[], ctx: z.core.$RefinementCtx): void {
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
