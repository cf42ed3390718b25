import type { CommitStatus } from '../../core/forge/commit-status';
import { FORGE_NAMES, forgeOfHost, type ForgeKind } from '../../core/forge/forge-hosts';
import type { Forge, PullRequestComment } from '../../ports/forge';
import { ConfigError } from '../../shared/errors';

/** A configured forge and the git hosts it serves besides its default one. */
export interface RoutedForge {
  readonly forge: Forge;
  readonly hosts: readonly string[];
}

/**
 * The forges of a deployment as one: each commit status goes to the forge of its config source's host (forgeOfHost:
 * configured hosts, then github.com / gitlab.com / bitbucket.org); a host no forge names goes to GitHub when GitHub is
 * configured (as before there were others: GitHub Enterprise needs no `hosts`). Plan comments go to GitHub only.
 */
export class ForgeRouter implements Forge {
  readonly configured: boolean;

  constructor(private readonly forges: Readonly<Partial<Record<ForgeKind, RoutedForge>>>) {
    this.configured = Object.values(forges).some((f) => f?.forge.configured);
  }

  async setStatus(status: CommitStatus): Promise<void> {
    const hosts = Object.fromEntries(Object.entries(this.forges).map(([kind, f]) => [kind, f.hosts]));
    const kind = forgeOfHost(status.host, hosts) ?? (this.forges.github ? 'github' : undefined);
    const where = `${status.host ? `${status.host}/` : ''}${status.project}`;
    if (!kind) {
      throw new ConfigError(
        `${where}: no forge serves host ${JSON.stringify(status.host)}; name it in "hosts" of the forge credentials' github, gitlab or bitbucket entry`,
      );
    }
    const target = this.forges[kind];
    if (!target) {
      throw new ConfigError(
        `${where}: no ${FORGE_NAMES[kind]} credentials; add a "${kind}" entry to the forge credentials to report there`,
      );
    }
    await target.forge.setStatus(status);
  }

  async upsertComment(repository: string, number: number, marker: string, body: string): Promise<PullRequestComment> {
    if (!this.forges.github)
      throw new ConfigError(
        `${repository}#${number}: plan comments go to GitHub only, and no GitHub credentials are configured`,
      );
    return this.forges.github.forge.upsertComment(repository, number, marker, body);
  }
}
