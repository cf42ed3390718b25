/**
 * Settings of the cluster-account access (docs/deploying-into-your-organisation.md), from CDK context or the
 * environment, like app-config.ts:
 *
 * | context | environment | for |
 * |---|---|---|
 * | `clusterAccountIds` | `CLM_CLUSTER_ACCOUNTS` | ClmWorkflow, cross-account mode: the accounts of the registry's clusters (comma-separated or a JSON list); the task roles may assume `assumedRoleName` there only |
 * | `organizationId` | `CLM_ORGANIZATION_ID` | both: `o-…`; ClmWorkflow may assume the role in any account of the organisation, and ClmClusterAccess trusts only callers from it |
 * | `externalId` | `CLM_EXTERNAL_ID` | both: the ExternalId the access role requires and the tasks send |
 * | `clusterStackNamePatterns` | `CLM_CLUSTER_STACK_PATTERNS` | both: names of the stacks CLM may write (default `nodepool-*,kube-*`) |
 * | `clusterResourceNamePatterns` | `CLM_CLUSTER_RESOURCE_PATTERNS` | both: names the cluster templates give their resources (IAM roles, buckets, queues, log groups, ...; default: the stack patterns) |
 * | `sharedStackNamePatterns` | `CLM_SHARED_STACK_PATTERNS` | both: other stacks whose resources the templates may change (default none) |
 * | `clmAccountId` | `CLM_ACCOUNT_ID` | ClmClusterAccess: the account CLM runs in; setting it adds the ClmClusterAccess stack to the app |
 * | `clusterTokenSecretPrefix` | `CLM_CLUSTER_TOKEN_SECRETS` | ClmWorkflow: name prefix of the per-cluster API token secrets (`kube_token_secret`) the tasks may read |
 */
import { DEFAULT_STACK_NAME_PATTERNS } from './constructs/cluster-access-policies';

export interface ClusterAccessConfig {
  readonly clusterAccountIds: readonly string[];
  readonly organizationId?: string;
  readonly externalId?: string;
  readonly clusterStackNamePatterns: readonly string[];
  readonly clusterResourceNamePatterns?: readonly string[];
  readonly sharedStackNamePatterns?: readonly string[];
  readonly clmAccountId?: string;
  readonly clusterTokenSecretPrefix?: string;
}

export const CLUSTER_ACCESS_SOURCES = {
  clusterAccountIds: 'CLM_CLUSTER_ACCOUNTS',
  organizationId: 'CLM_ORGANIZATION_ID',
  externalId: 'CLM_EXTERNAL_ID',
  clusterStackNamePatterns: 'CLM_CLUSTER_STACK_PATTERNS',
  clusterResourceNamePatterns: 'CLM_CLUSTER_RESOURCE_PATTERNS',
  sharedStackNamePatterns: 'CLM_SHARED_STACK_PATTERNS',
  clmAccountId: 'CLM_ACCOUNT_ID',
  clusterTokenSecretPrefix: 'CLM_CLUSTER_TOKEN_SECRETS',
} as const;

type Key = keyof typeof CLUSTER_ACCESS_SOURCES;

const RULES: Record<Key, { readonly pattern: RegExp; readonly what: string }> = {
  clusterAccountIds: { pattern: /^\d{12}$/, what: 'a 12-digit AWS account id' },
  organizationId: { pattern: /^o-[a-z0-9]{10,32}$/, what: 'an AWS Organizations id (o-...)' },
  externalId: { pattern: /^[\w+=,.@:/-]{2,1224}$/, what: 'an ExternalId (2-1224 of letters, digits, +=,.@:/-)' },
  clusterStackNamePatterns: {
    pattern: /^[A-Za-z*?][\w*?-]*$/,
    what: 'a stack name pattern (letters, digits, -, * and ?)',
  },
  clusterResourceNamePatterns: {
    pattern: /^[A-Za-z0-9*?/][\w*?./-]*$/,
    what: 'a resource name pattern (letters, digits, -, _, ., /, * and ?)',
  },
  sharedStackNamePatterns: {
    pattern: /^[A-Za-z*?][\w*?-]*$/,
    what: 'a stack name pattern (letters, digits, -, * and ?)',
  },
  clmAccountId: { pattern: /^\d{12}$/, what: 'a 12-digit AWS account id' },
  clusterTokenSecretPrefix: { pattern: /^[\w/+=.@-]{2,256}$/, what: 'a secret name prefix (letters, digits, /_+=.@-)' },
};

/** Context first, then the environment; throws naming the key and the bad value. */
export function readClusterAccessConfig(
  context: (key: string) => unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ClusterAccessConfig {
  const raw = (key: Key): unknown => context(key) ?? (env[CLUSTER_ACCESS_SOURCES[key]] || undefined);
  const checked = (key: Key, value: string): string => {
    if (!RULES[key].pattern.test(value))
      throw new Error(
        `${key} (context or ${CLUSTER_ACCESS_SOURCES[key]}): ${JSON.stringify(value)} is not ${RULES[key].what}`,
      );
    return value;
  };
  const list = (key: Key): string[] | undefined => {
    const value = raw(key);
    if (value === undefined || value === null || value === '') return undefined;
    const items = Array.isArray(value)
      ? value.map(String)
      : String(value).trim().startsWith('[')
        ? (JSON.parse(String(value)) as unknown[]).map(String)
        : String(value).split(',');
    return items
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => checked(key, item));
  };
  const one = (key: Key): string | undefined => {
    const value = raw(key);
    return value === undefined || value === null || value === '' ? undefined : checked(key, String(value).trim());
  };
  return {
    clusterAccountIds: [...new Set(list('clusterAccountIds') ?? [])],
    organizationId: one('organizationId'),
    externalId: one('externalId'),
    clusterStackNamePatterns: list('clusterStackNamePatterns') ?? DEFAULT_STACK_NAME_PATTERNS,
    ...optionalList('clusterResourceNamePatterns', list('clusterResourceNamePatterns')),
    ...optionalList('sharedStackNamePatterns', list('sharedStackNamePatterns')),
    clmAccountId: one('clmAccountId'),
    clusterTokenSecretPrefix: one('clusterTokenSecretPrefix'),
  };
}

function optionalList<K extends string>(key: K, value: readonly string[] | undefined): Partial<Record<K, string[]>> {
  return value?.length ? ({ [key]: [...value] } as Partial<Record<K, string[]>>) : {};
}
