import type { Cluster } from '../../core/model/cluster';
import type { VersionResolver } from '../../core/version/resolve-config-version';
import { channelOverrides } from '../../core/version/resolve-config-version';
import type { ConfigSource } from '../../ports/config-source';
import type { FleetStore } from '../../ports/fleet-store';

/** Every branch and tag head of each git source that can list them (one request per source), by source name. */
export type SourceHeads = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** A ref clusters follow that moved without a webhook delivery telling us (a lost or never-sent webhook). */
export interface MissedPush {
  readonly source: string;
  readonly ref: string;
  readonly commit: string;
  /** The commit last recorded for the ref (by a webhook, or an earlier pass). */
  readonly previous: string;
}

/** The delivery id the scheduled pass records its findings under. */
export const LS_REMOTE_DELIVERY = 'ls-remote';

export async function readHeads(sources: readonly ConfigSource[]): Promise<SourceHeads> {
  const heads = new Map<string, ReadonlyMap<string, string>>();
  await Promise.all(
    sources.map(async (source) => {
      if (source.kind === 'git' && source.listHeads) heads.set(source.name, await source.listHeads());
    }),
  );
  return heads;
}

/**
 * Resolvers that answer a channel from the listed heads as the source itself would (a tag before a branch, full ref
 * names too), and ask the source for anything else (a commit SHA): the pass's targets without a fetch.
 */
export function headResolvers(sources: readonly ConfigSource[], heads: SourceHeads): VersionResolver[] {
  return sources.map((source) => {
    const listed = heads.get(source.name);
    if (!listed) return source;
    return {
      name: source.name,
      resolveVersion: (channel: string) => {
        const candidates = channel.startsWith('refs/') ? [channel] : [`refs/tags/${channel}`, `refs/heads/${channel}`];
        const found = candidates.map((ref) => listed.get(ref)).find(Boolean);
        return found ? Promise.resolve(found) : source.resolveVersion(channel);
      },
      checkout: (version: string) => source.checkout(version),
    };
  });
}

/**
 * Compare the heads of the refs clusters follow with the commits recorded for them (by webhooks, or the last pass) and
 * record what moved. A ref seen for the first time is recorded, not reported; a ref whose head differs from its
 * record moved without a delivery: a missed push, which this pass dispatches as a push would have.
 */
export async function recordHeads(
  fleet: Pick<FleetStore, 'getCommit' | 'recordCommit'>,
  heads: SourceHeads,
  clusters: readonly Cluster[],
  now: number,
): Promise<MissedPush[]> {
  const missed: MissedPush[] = [];
  for (const [source, refs] of heads) {
    for (const ref of followedRefs(source, clusters)) {
      const commit = refs.get(ref);
      if (!commit) continue;
      const recorded = await fleet.getCommit(source, ref);
      if (recorded?.commit === commit) continue;
      await fleet.recordCommit({
        source,
        ref,
        commit,
        deleted: false,
        // When it was pushed is unknown: just after what was recorded, so a webhook's own record (the push's time) wins.
        pushedAt: recorded ? recorded.pushedAt + 1 : 0,
        deliveryId: LS_REMOTE_DELIVERY,
        recordedAt: now,
      });
      if (recorded) missed.push({ source, ref, commit, previous: recorded.commit });
    }
  }
  return missed;
}

/** The full refs (`refs/heads/x` and `refs/tags/x`) that clusters follow in `source`. */
function followedRefs(source: string, clusters: readonly Cluster[]): Set<string> {
  const refs = new Set<string>();
  for (const cluster of clusters) {
    if (cluster.lifecycleStatus === 'decommissioned') continue;
    let channel = cluster.channel;
    try {
      channel = channelOverrides(cluster).get(source) ?? channel;
    } catch {
      // A bad override is the target's problem, reported by the pass.
    }
    if (channel.startsWith('refs/')) refs.add(channel);
    else refs.add(`refs/heads/${channel}`).add(`refs/tags/${channel}`);
  }
  return refs;
}
