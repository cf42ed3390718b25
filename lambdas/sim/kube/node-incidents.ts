import type { SimContext } from '../sim-context';
import type { KubeState } from '../world-state';
import type { SimNode } from '../sim-node';

/**
 * The scenario's node incidents (sim/scenario-node-incidents.ts) as Kubernetes shows them: at the incident's time the
 * chosen nodes stop posting status, so their Ready condition turns Unknown (reason NodeStatusUnknown, "Kubelet stopped
 * posting node status."), they get the `node.kubernetes.io/unreachable` taints, and their pods turn not Ready (the
 * node lifecycle controller's MarkPodsNotReady). From then on nothing on the node confirms anything: a pod deleted
 * there with a grace period stays Terminating (its kubelet never reports it gone) until the node goes or the pod is
 * deleted with grace 0, and a pod's start or the node's readiness that was still due never happens. The node lifecycle
 * controller's taint-based eviction (pods deleted 300 s after the taint) is not modelled: the pods stay bound until
 * something deletes them, which is stricter than Kubernetes, never more lenient.
 */

export const NODE_LOST_REASON = 'NodeStatusUnknown';
export const NODE_LOST_MESSAGE = 'Kubelet stopped posting node status.';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';

/** When the next incident not yet applied happens, if at or before `upTo`. */
export function nextIncidentAt(ctx: SimContext, upTo: number): number | undefined {
  const done = new Set(ctx.state.nodeIncidentsDone ?? []);
  const times = (ctx.state.scenario.nodeIncidents ?? [])
    .map((incident, index) => ({ index, at: ctx.state.startTime + incident.atSeconds * 1000 }))
    .filter(({ index, at }) => !done.has(index) && at <= upTo)
    .map(({ at }) => at);
  return times.length ? Math.min(...times) : undefined;
}

/** Apply every incident due at `at` (the clock is there). */
export function applyIncidents(ctx: SimContext, at: number): void {
  const done = (ctx.state.nodeIncidentsDone ??= []);
  (ctx.state.scenario.nodeIncidents ?? []).forEach((incident, index) => {
    if (done.includes(index) || ctx.state.startTime + incident.atSeconds * 1000 > at) return;
    done.push(index);
    for (const kube of Object.values(ctx.state.kube)) {
      if (incident.cluster !== undefined && incident.cluster !== kube.clusterId) continue;
      const candidates = Object.values(kube.nodes)
        .filter((n) => n.ready && !n.lost && (incident.pool ? n.pool === incident.pool : n.role === 'worker'))
        .sort((a, b) => a.createdAt - b.createdAt || a.seq - b.seq);
      const count =
        typeof incident.nodes === 'number'
          ? incident.nodes
          : Math.floor((candidates.length * Number(incident.nodes.slice(0, -1))) / 100);
      for (const node of candidates.slice(0, count)) loseNode(ctx, kube, node, incident.kind, at);
    }
  });
}

function loseNode(
  ctx: SimContext,
  kube: KubeState,
  node: SimNode,
  kind: NonNullable<SimNode['lost']>['kind'],
  at: number,
) {
  node.lost = { since: at, kind };
  node.ready = false;
  node.taints = [
    ...node.taints.filter((t) => t.key !== UNREACHABLE_TAINT),
    { key: UNREACHABLE_TAINT, effect: 'NoSchedule' },
    { key: UNREACHABLE_TAINT, effect: 'NoExecute' },
  ];
  for (const pod of Object.values(kube.pods)) if (pod.nodeName === node.name) pod.ready = false;
  ctx.dirty.add(kube.clusterId);
}

/** Whether the pod's node stopped reporting (nothing there confirms a termination or a start). */
export function onLostNode(kube: KubeState, nodeName: string | undefined): boolean {
  return nodeName !== undefined && kube.nodes[nodeName]?.lost !== undefined;
}
