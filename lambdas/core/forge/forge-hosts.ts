/** The forges CLM reports commit statuses to. */
export type ForgeKind = 'github' | 'gitlab' | 'bitbucket';

export const FORGE_KINDS: readonly ForgeKind[] = ['github', 'gitlab', 'bitbucket'];

/** How users and errors name each forge. */
export const FORGE_NAMES: Readonly<Record<ForgeKind, string>> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
};

/** The hosts each forge has without configuration (the SaaS ones). */
export const DEFAULT_FORGE_HOSTS: Readonly<Record<ForgeKind, string>> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

/**
 * The lower-cased host of a git URL (`https://user@Gitlab.example.com/g/p.git` and `git@gitlab.example.com:g/p.git`
 * both give `gitlab.example.com`); empty for a local path or `file://` URL.
 */
export function repositoryHost(url: string): string {
  const scp = /^[^/@:]+@([^/:]+):/.exec(url);
  if (scp) return scp[1].toLowerCase();
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/**
 * The forge a host belongs to: the one whose configured hosts name it, else the one whose default host it is; none for
 * another host (the caller decides: today's GitHub-only setups send those to GitHub, e.g. GitHub Enterprise).
 */
export function forgeOfHost(
  host: string,
  configured: Readonly<Partial<Record<ForgeKind, readonly string[]>>>,
): ForgeKind | undefined {
  const wanted = host.toLowerCase();
  const named = FORGE_KINDS.find((kind) => configured[kind]?.some((h) => h.toLowerCase() === wanted));
  return named ?? FORGE_KINDS.find((kind) => DEFAULT_FORGE_HOSTS[kind] === wanted);
}
