import type { Cluster } from '../model/cluster';
import type { ConfigSourceSpec } from '../model/config-source-spec';
import { channelOverrides } from '../version/resolve-config-version';
import type { GithubPushEvent } from './github-events';
import { DELETED_REF_SHA } from './github-events';

/** A push as any forge reports it (GitHub, GitLab, Bitbucket), or as the scheduled pass found it (`git ls-remote`). */
export interface ForgePush {
  /** `owner/name` (GitLab: `group/subgroup/name`; Bitbucket Data Center: `PROJECT/slug`). */
  readonly repository: string;
  /** A full ref name: `refs/heads/main`, `refs/tags/v1`. */
  readonly ref: string;
  readonly before: string;
  /** The pushed commit; the all-zero SHA when the ref was deleted. */
  readonly after: string;
  readonly deleted: boolean;
  /** When the forge says the push happened (ms); absent: when it was received. */
  readonly pushedAt?: number;
}

/** GitHub's push payload as a ForgePush. */
export function githubPush(push: GithubPushEvent): ForgePush {
  const pushedAt = pushTime(push);
  return {
    repository: push.repository.full_name,
    ref: push.ref,
    before: push.before,
    after: push.after,
    deleted: push.deleted === true || push.after === DELETED_REF_SHA,
    ...(pushedAt !== undefined ? { pushedAt } : {}),
  };
}

/** What a push matched: the config sources fed by the repository and the clusters following the ref. */
export interface PushMatch {
  /** `owner/name` as GitHub spells it. */
  readonly repository: string;
  readonly ref: string;
  /** The pushed commit (`after`); the all-zero SHA when the ref was deleted. */
  readonly commit: string;
  readonly deleted: boolean;
  readonly sources: readonly string[];
  /** Affected clusters, registry order. */
  readonly clusters: readonly string[];
  /** Clusters whose `override_channel` could not be read (their plain channel was used). */
  readonly problems: readonly string[];
}

/** The newest commit known for a ref of a config source (`SOURCE#<name>` `REF#<ref>`). */
export interface SourceCommit {
  readonly source: string;
  readonly ref: string;
  readonly commit: string;
  readonly deleted: boolean;
  /** When GitHub says the push happened (ms); older pushes never overwrite newer ones. */
  readonly pushedAt: number;
  readonly deliveryId: string;
  readonly recordedAt: number;
}

/**
 * The lower-cased path segments of a git URL, `.git` dropped: `https://github.com/Acme/Config.git`,
 * `file:///srv/git/acme/config` and `git@github.com:acme/config.git` all end in `acme`, `config`.
 */
export function repositoryPath(url: string): string[] {
  const scp = /^[^/@:]+@[^/:]+:(.+)$/.exec(url);
  let path: string;
  if (scp) path = scp[1];
  else {
    try {
      path = decodeURIComponent(new URL(url).pathname);
    } catch {
      path = url;
    }
  }
  const segments = path.split('/').filter(Boolean);
  if (segments.length > 0) segments[segments.length - 1] = segments[segments.length - 1].replace(/\.git$/i, '');
  return segments.map((s) => s.toLowerCase());
}

/** Git config sources whose URL path ends in `owner/name` (case-insensitive, whole segments). */
export function sourcesForRepository(sources: readonly ConfigSourceSpec[], fullName: string): ConfigSourceSpec[] {
  const wanted = fullName
    .toLowerCase()
    .replace(/\.git$/, '')
    .split('/');
  return sources.filter((source) => {
    if (source.kind !== 'git') return false;
    const path = repositoryPath(source.location);
    return path.length >= wanted.length && wanted.every((part, i) => path[path.length - wanted.length + i] === part);
  });
}

/** A push to `ref` moves the channel when it names that branch or tag (`main`, `refs/heads/main`). */
export function refMatchesChannel(ref: string, channel: string): boolean {
  return ref === channel || ref === `refs/heads/${channel}` || ref === `refs/tags/${channel}`;
}

/**
 * Which config sources a push feeds and which clusters it affects: those (not decommissioned) whose
 * channel for that source — `override_channel`'s entry, else `channel` — names the pushed ref.
 */
export function matchPush(
  push: ForgePush,
  sources: readonly ConfigSourceSpec[],
  clusters: readonly Cluster[],
): PushMatch {
  const following = clustersFollowing(push.repository, push.ref, sources, clusters);
  const deleted = push.deleted || push.after === DELETED_REF_SHA;
  return { repository: push.repository, ref: push.ref, commit: push.after, deleted, ...following };
}

/** The config sources of `repository` and the clusters (not decommissioned) that follow `ref` in one of them. */
export function clustersFollowing(
  repository: string,
  ref: string,
  sources: readonly ConfigSourceSpec[],
  clusters: readonly Cluster[],
): { sources: string[]; clusters: string[]; problems: string[] } {
  const matched = sourcesForRepository(sources, repository).map((s) => s.name);
  const names = sources.map((s) => s.name);
  const affected: string[] = [];
  const problems: string[] = [];
  for (const cluster of matched.length ? clusters : []) {
    if (cluster.lifecycleStatus === 'decommissioned') continue;
    let overrides = new Map<string, string>();
    try {
      overrides = channelOverrides(cluster, names);
    } catch (error) {
      problems.push((error as Error).message);
    }
    if (matched.some((source) => refMatchesChannel(ref, overrides.get(source) ?? cluster.channel))) {
      affected.push(cluster.id);
    }
  }
  return { sources: matched, clusters: affected, problems };
}

/** The commits to remember, one per matched source. */
export function sourceCommits(push: ForgePush, match: PushMatch, deliveryId: string, now: number): SourceCommit[] {
  return match.sources.map((source) => ({
    source,
    ref: match.ref,
    commit: match.commit,
    deleted: match.deleted,
    pushedAt: push.pushedAt ?? now,
    deliveryId,
    recordedAt: now,
  }));
}

/** `repository.pushed_at` (Unix seconds in push payloads), else the head commit's timestamp. */
function pushTime(push: GithubPushEvent): number | undefined {
  const pushedAt = push.repository.pushed_at;
  if (typeof pushedAt === 'number') return pushedAt * 1000;
  const text = typeof pushedAt === 'string' ? pushedAt : push.head_commit?.timestamp;
  const parsed = text ? Date.parse(text) : NaN;
  return Number.isNaN(parsed) ? undefined : parsed;
}
