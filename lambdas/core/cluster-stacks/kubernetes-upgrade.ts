import { ConfigError, type SourceLocation } from '../../shared/errors';

export interface MinorVersion {
  readonly major: number;
  readonly minor: number;
}

/** A node as the skew check sees it: its name and the minor its kubelet reports. */
export interface NodeVersion {
  readonly name: string;
  readonly version: MinorVersion;
}

/**
 * How many minors a kubelet may be older than the API server it talks to: three since Kubernetes 1.28, two before
 * (the Kubernetes version skew policy). Never newer.
 */
export function kubeletSkew(apiServer: MinorVersion): number {
  return apiServer.major > 1 || apiServer.minor >= 28 ? 3 : 2;
}

export interface UpgradeCheck {
  /**
   * The API server's version now: what the cluster reports live (GET /version), else the stack the cluster runs
   * recorded; undefined for a new cluster.
   */
  readonly from?: MinorVersion;
  readonly to: MinorVersion;
  /**
   * Every node with the minor its kubelet reports (status.nodeInfo.kubeletVersion), read live. Without them (the
   * cluster cannot be reached) the nodes are taken to run `from`.
   */
  readonly nodes?: readonly NodeVersion[];
  /** Whether the run rolls nodes (false under --apply-only). */
  readonly rollsNodes: boolean;
}

const text = (v: MinorVersion) => `${v.major}.${v.minor}`;

/** `v1.30.5`, `1.30.5-eks-1234`, `v1.31.0+k3s1` → { major: 1, minor: 30 }; undefined when it is no version. */
export function liveMinor(version: string): MinorVersion | undefined {
  const match = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(version.trim());
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : undefined;
}

/**
 * The Kubernetes upgrade rules, checked before anything is written: one minor at a time (no skip, no
 * downgrade, no major change), the control plane first — the master pools roll before any worker pool, so a
 * minor upgrade must roll nodes — and the version skew against the new API server: no kubelet newer, none more
 * than kubeletSkew(to) minors older. The nodes are those the cluster reports live, so a node an interrupted
 * upgrade left on an older minor is found (and named). Returns a description of the upgrade, undefined when the
 * minor stays, or throws a ConfigError at `where`.
 */
export function checkKubernetesUpgrade(check: UpgradeCheck, where: SourceLocation): string | undefined {
  const { from, to } = check;
  if (!from || (from.major === to.major && from.minor === to.minor)) return undefined;
  const fail = (message: string): never => {
    throw new ConfigError(`Kubernetes ${text(from)} → ${text(to)}: ${message}`, { location: where });
  };
  if (from.major !== to.major) fail('a change of major version is not supported');
  if (to.minor < from.minor) fail('a downgrade is not supported');
  if (to.minor - from.minor > 1)
    fail(
      `one minor at a time: upgrade to ${to.major}.${from.minor + 1} first (its <k8s-major-minor> directory), then on`,
    );
  if (!check.rollsNodes) fail('a minor upgrade rolls every node (control plane first), so --apply-only is refused');
  // Without live nodes they run `from`, one minor behind `to`: inside every skew.
  const skewProblems = nodeSkewProblems(check.nodes ?? [], to);
  if (skewProblems.length) fail(skewProblems.join('; '));
  return `Kubernetes upgrade ${text(from)} → ${text(to)}: control plane (master pools) first, then the workers`;
}

/**
 * The nodes that would fall outside the kubelet skew once the API server runs `to`, grouped by minor:
 * `node ip-10-0-1-7 (kubelet 1.27) would be 4 minors behind the API server 1.31 (at most 3 since Kubernetes 1.28)`.
 */
export function nodeSkewProblems(nodes: readonly NodeVersion[], to: MinorVersion): string[] {
  const skew = kubeletSkew(to);
  const byMinor = new Map<string, { version: MinorVersion; names: string[] }>();
  for (const node of nodes) {
    const { version } = node;
    const outside = version.major !== to.major || version.minor > to.minor || to.minor - version.minor > skew;
    if (!outside) continue;
    const key = text(version);
    if (!byMinor.has(key)) byMinor.set(key, { version, names: [] });
    byMinor.get(key)!.names.push(node.name);
  }
  const rule = `at most ${skew} ${skew >= 3 ? 'since' : 'before'} Kubernetes 1.28`;
  return [...byMinor.values()]
    .sort((a, b) => a.version.major - b.version.major || a.version.minor - b.version.minor)
    .map(({ version, names }) => {
      const who = `${names.length === 1 ? 'node' : 'nodes'} ${[...names].sort().join(', ')} (kubelet ${text(version)})`;
      if (version.major !== to.major || version.minor > to.minor)
        return `${who} would be newer than the API server ${text(to)}`;
      return `${who} would be ${to.minor - version.minor} minors behind the API server ${text(to)} (${rule}); roll them onto the Kubernetes minor the cluster runs first`;
    });
}
