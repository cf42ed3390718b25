import { createHash } from 'node:crypto';
import type { ClusterUpdateInput, PullRequestPlan } from '../../contracts/cluster-update';
import type { Cluster } from '../../core/model/cluster';
import { refMatchesChannel } from '../../core/webhook/push-match';
import { resolveClusterConfigVersion, type VersionResolver } from '../../core/version/resolve-config-version';
import type { ConfigSource } from '../../ports/config-source';

/** The pull request a plan is made for, as the webhook accepted it. */
export interface PullRequestTarget {
  readonly repository: string;
  readonly number: number;
  readonly head: string;
  /** `refs/heads/<base>`. */
  readonly base: string;
  readonly url?: string;
}

/** Plans of one pull request head, at most: the comment lists them all. */
export const MAX_PLANNED_CLUSTERS = 50;

/**
 * The plan execution's name for one cluster and pull request head: `plan-<local id>-<head 8>-<digest>`, the same for
 * the same head (a second delivery of it starts nothing new), at most 80 characters.
 */
export function planExecutionName(cluster: Pick<Cluster, 'id' | 'localId'>, pr: PullRequestTarget): string {
  const digest = createHash('sha256')
    .update(`plan\u0000${cluster.id}\u0000${pr.repository.toLowerCase()}\u0000${pr.number}\u0000${pr.head}`)
    .digest('hex')
    .slice(0, 16);
  const slug = cluster.localId
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return ['plan', slug, pr.head.slice(0, 8), digest].filter(Boolean).join('-');
}

/**
 * The config version a cluster would get if the pull request were merged: the head for each source whose channel is
 * the base branch (sources of other repositories, and other channels, as they resolve now).
 */
export async function headVersion(
  cluster: Cluster,
  pr: PullRequestTarget,
  sources: readonly ConfigSource[],
  matched: readonly string[],
): Promise<{ configVersion: string; sourceVersions: Record<string, string> }> {
  const resolvers: VersionResolver[] = sources.map((source) =>
    matched.includes(source.name)
      ? {
          name: source.name,
          resolveVersion: (channel: string) =>
            refMatchesChannel(pr.base, channel) ? Promise.resolve(pr.head) : source.resolveVersion(channel),
          checkout: (version: string) => source.checkout(version),
        }
      : source,
  );
  const resolved = await resolveClusterConfigVersion(cluster, resolvers);
  return {
    configVersion: resolved.id,
    sourceVersions: Object.fromEntries(resolved.sources.map((s) => [s.name, s.version])),
  };
}

/** The `action: plan` execution input of one cluster. */
export function planInput(
  cluster: Cluster,
  pr: PullRequestTarget,
  version: { configVersion: string; sourceVersions: Record<string, string> },
  planned: readonly string[],
): ClusterUpdateInput {
  const pullRequest: PullRequestPlan = {
    repository: pr.repository,
    number: pr.number,
    head: pr.head,
    base: pr.base.replace(/^refs\/heads\//, ''),
    configVersion: version.configVersion,
    sourceVersions: version.sourceVersions,
    clusters: [...planned],
    ...(pr.url ? { url: pr.url } : {}),
  };
  return { clusterId: cluster.id, action: 'plan', options: { applyOnly: false }, trigger: 'pull-request', pullRequest };
}
