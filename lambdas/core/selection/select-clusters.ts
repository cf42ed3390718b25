import { ValidationError } from '../../shared/errors';
import type { Cluster } from '../model/cluster';
import { closestMatch } from '../model/did-you-mean';

export interface SelectionOptions {
  /** Regex an infrastructure account must match (CLM `--include`, default `.*`). Unanchored, like Go's MatchString. */
  readonly include?: string;
  /** Regex that drops matching accounts; wins over include (CLM `--exclude`, default `^$`). */
  readonly exclude?: string;
  /** `--cluster ID` (repeatable): only these clusters. Unknown ids are a usage error. */
  readonly clusterIds?: readonly string[];
}

export interface SkippedCluster {
  readonly cluster: Cluster;
  readonly reason: string;
}

export interface Selection {
  /** In registry order. */
  readonly selected: Cluster[];
  /** Clusters named with `--cluster` or otherwise in scope that the account filter dropped, with why. */
  readonly skipped: SkippedCluster[];
}

export const DEFAULT_INCLUDE = '.*';
export const DEFAULT_EXCLUDE = '^$';

/**
 * A predicate over infrastructure accounts from `--include`/`--exclude` (CLM `config/include_exclude.go`):
 * an account is processed when it matches include and does not match exclude. Invalid expressions are a
 * usage error naming the flag.
 */
export function createAccountFilter(
  options: Pick<SelectionOptions, 'include' | 'exclude'> = {},
): (account: string) => boolean {
  const include = compile('--include', options.include ?? DEFAULT_INCLUDE);
  const exclude = compile('--exclude', options.exclude ?? DEFAULT_EXCLUDE);
  return (account) => include.test(account) && !exclude.test(account);
}

/**
 * Pick the clusters to work on: those named with `--cluster` (all when none are named), whose account
 * passes the include/exclude filter. Registry order is kept.
 */
export function selectClusters(clusters: readonly Cluster[], options: SelectionOptions = {}): Selection {
  const accepts = createAccountFilter(options);
  const wanted = options.clusterIds && options.clusterIds.length > 0 ? new Set(options.clusterIds) : undefined;
  if (wanted)
    assertKnown(
      [...wanted],
      clusters.map((c) => c.id),
    );

  const selected: Cluster[] = [];
  const skipped: SkippedCluster[] = [];
  for (const cluster of clusters) {
    if (wanted && !wanted.has(cluster.id)) continue;
    if (accepts(cluster.infrastructureAccount)) {
      selected.push(cluster);
    } else {
      skipped.push({ cluster, reason: filterReason(cluster.infrastructureAccount, options) });
    }
  }
  return { selected, skipped };
}

function filterReason(account: string, options: SelectionOptions): string {
  const include = options.include ?? DEFAULT_INCLUDE;
  if (!new RegExp(include).test(account)) return `account ${account} does not match --include ${include}`;
  return `account ${account} matches --exclude ${options.exclude ?? DEFAULT_EXCLUDE}`;
}

const MAX_LISTED = 20;

function assertKnown(ids: readonly string[], known: readonly string[]): void {
  const knownSet = new Set(known);
  const unknown = ids.filter((id) => !knownSet.has(id));
  if (unknown.length === 0) return;
  const listed = known.slice(0, MAX_LISTED).join(', ');
  const more = known.length > MAX_LISTED ? ` and ${known.length - MAX_LISTED} more` : '';
  const issues = unknown.map((id) => {
    const match = closestMatch(id, known);
    return `--cluster ${id}: no such cluster in the registry${match ? ` (did you mean ${match}?)` : ''}`;
  });
  throw new ValidationError(
    `unknown cluster id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known: ${known.length ? `${listed}${more}` : 'none (the registry is empty)'}`,
    { issues },
  );
}

function compile(flag: string, source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new ValidationError(
      `${flag} ${JSON.stringify(source)} is not a valid regular expression: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
