import { liveMinor, type MinorVersion, type NodeVersion } from '../../core/cluster-stacks/kubernetes-upgrade';
import type { KubeCluster } from '../../ports/kube-cluster';

/** The Kubernetes versions a cluster runs, as its API server reports them (before an update writes anything). */
export interface LiveKubernetes {
  /** GET /version, `v1.30.5`; undefined when the cluster could not be read. */
  readonly apiServer?: string;
  /** Every node and the kubelet version it reports (status.nodeInfo.kubeletVersion). */
  readonly nodes: readonly { readonly name: string; readonly kubeletVersion?: string }[];
  /** Why nothing live was read (a new cluster, the API server not reachable). */
  readonly unreachable?: string;
}

/**
 * Read the API server's version and every node's kubelet version. A cluster that cannot be reached (being created,
 * or down) gives `unreachable` with the reason, and the caller falls back to the version its last run recorded.
 */
export async function readLiveKubernetes(kube: KubeCluster): Promise<LiveKubernetes> {
  try {
    if (!(await kube.ready())) return { nodes: [], unreachable: 'the API server is not reachable' };
    const [apiServer, nodes] = await Promise.all([kube.serverVersion(), kube.listNodes()]);
    return {
      apiServer,
      nodes: nodes.map((n) => ({ name: n.name, ...(n.kubeletVersion ? { kubeletVersion: n.kubeletVersion } : {}) })),
    };
  } catch (error) {
    return { nodes: [], unreachable: error instanceof Error ? error.message : String(error) };
  }
}

/** The API server's minor and the nodes' minors, for the upgrade rules; undefined when nothing live was read. */
export function liveVersions(
  live: LiveKubernetes | undefined,
): { readonly from: MinorVersion; readonly nodes: NodeVersion[] } | undefined {
  const from = live?.apiServer ? liveMinor(live.apiServer) : undefined;
  if (!live || !from) return undefined;
  const nodes: NodeVersion[] = [];
  for (const node of live.nodes) {
    const version = node.kubeletVersion ? liveMinor(node.kubeletVersion) : undefined;
    if (version) nodes.push({ name: node.name, version });
  }
  return { from, nodes };
}

/**
 * One line for the plan and Prepare's message: `Kubernetes checked live: API server v1.30.5; kubelets v1.30.5 (3
 * nodes), v1.28.9 (ip-10-0-1-7)`, or why the recorded version was used.
 */
export function describeLiveKubernetes(live: LiveKubernetes, recorded: string | undefined): string {
  if (!live.apiServer || !liveMinor(live.apiServer)) {
    const why = live.unreachable ?? `the API server reported no version (${JSON.stringify(live.apiServer ?? '')})`;
    return `Kubernetes versions not read live (${why}): checked against ${
      recorded ? `the recorded version ${recorded}` : 'no earlier version (nothing to check)'
    }`;
  }
  const byVersion = new Map<string, string[]>();
  for (const node of live.nodes) {
    const version = node.kubeletVersion ?? 'unknown';
    byVersion.set(version, [...(byVersion.get(version) ?? []), node.name]);
  }
  const kubelets = [...byVersion]
    .sort(([a], [b]) => newestFirst(a, b))
    .map(([version, names]) =>
      names.length > 2 ? `${version} (${names.length} nodes)` : `${version} (${[...names].sort().join(', ')})`,
    );
  return `Kubernetes checked live: API server ${live.apiServer}; kubelets ${kubelets.length ? kubelets.join(', ') : 'none (no nodes)'}`;
}

/** Newest minor first (1.10 before 1.9); unknown versions last. */
function newestFirst(a: string, b: string): number {
  const [x, y] = [liveMinor(a), liveMinor(b)];
  if (!x || !y) return x ? -1 : y ? 1 : 0;
  return y.major - x.major || y.minor - x.minor || (a < b ? 1 : a > b ? -1 : 0);
}
