import { MainArtifact, ResourcesArtifact } from '../../contracts/artifacts';
import type { FleetEvent } from '../../contracts/fleet-events';
import { withControlPlane } from '../../core/eks/eks-control-plane';
import { describeDrift, driftCheckDue, liveKey, looksDrifted, type DriftedObject } from '../../core/manifests/drift';
import { manifestDrift, type DriftMode } from '../../core/manifests/manifest-items';
import type { Cluster, ConfigItems } from '../../core/model/cluster';
import { updateBlock } from '../../core/model/update-decision';
import type { KubeCluster, KubeObject } from '../../ports/kube-cluster';
import type { PortsFor } from '../define-task';
import { FIELD_MANAGER } from '../apply-manifests';
import { getArtifact } from '../step/artifacts';
import { recordClusterProblem } from '../step/cluster-status';

/** The ports of the drift check (the dispatcher's task declares them too). */
export const DRIFT_PORTS = {
  registry: 'write',
  progress: 'write',
  artifacts: 'read',
  events: 'write',
  clock: 'read',
  kube: 'write',
} as const;
export type DriftPorts = PortsFor<typeof DRIFT_PORTS>;

/** The problem type of a drift report (`clm status` shows its title). */
export const MANIFEST_DRIFT_TYPE = 'https://cluster-lifecycle-manager.zalando.org/problems/manifest-drift';

/** Clusters checked at once (each one LIST per kind, then a dry run only where something differs). */
export const DRIFT_CHECKS_AT_ONCE = 16;

/** How often each cluster is checked (the scheduled passes spread the fleet over it, core/manifests/drift.ts). */
export const DRIFT_CHECK_INTERVAL_MS = 60 * 60_000;

export interface DriftPassOptions {
  /** `schedule`: only the clusters due in this pass (staggered); anything else (`clm dispatch`): every cluster given. */
  readonly trigger: string;
  /** The scheduled passes' period (the dispatcher's interval). */
  readonly periodMs: number;
}

export interface ClusterDrift {
  readonly clusterId: string;
  readonly mode: Exclude<DriftMode, 'off'>;
  readonly objects: readonly DriftedObject[];
  /** `repair`: re-applied; false when a hold (pause, abort, cluster_update_block) kept it to a report. */
  readonly repaired: boolean;
  readonly message: string;
}

export interface DriftSummary {
  /** Clusters looked at in this pass (the cheap check). */
  readonly checked: number;
  /** Those with drift, and what was done. */
  readonly drifted: readonly ClusterDrift[];
}

/**
 * The drift check of a dispatcher pass (`manifest_drift`: repair | report | off, default report). For each cluster
 * due — ready, at a version, no update running (its lease free), its mode not off — the cheap look: the manifests of
 * its current version (the run's resources artefact) against one LIST per kind; only candidates get a server-side
 * apply dry run (our field manager), which names the fields that differ and who changed them. `report`: a problem
 * (`clm status`) and a ManifestDrift event; `repair`: the drifted objects applied again (server-side apply, our field
 * manager, force), unless a hold is set, and the event. No execution is started: a quiet cluster costs the LISTs.
 */
export async function runDriftPass(
  ports: DriftPorts,
  clusters: readonly Cluster[],
  options: DriftPassOptions,
): Promise<{ summary: DriftSummary; events: FleetEvent[] }> {
  const now = ports.clock.now();
  const drifted: ClusterDrift[] = [];
  const events: FleetEvent[] = [];
  // The registry's own item may turn it off at no cost; config-defaults are read with the run's artefacts.
  const due = clusters.filter(
    (cluster) =>
      modeOf(cluster.configItems, cluster.id) !== 'off' &&
      cluster.lifecycleStatus === 'ready' &&
      cluster.status.currentVersion &&
      (options.trigger !== 'schedule' || driftCheckDue(cluster.id, now, DRIFT_CHECK_INTERVAL_MS, options.periodMs)),
  );
  const looks: (ClusterDrift | undefined)[] = [];
  for (let i = 0; i < due.length; i += DRIFT_CHECKS_AT_ONCE)
    looks.push(...(await Promise.all(due.slice(i, i + DRIFT_CHECKS_AT_ONCE).map((c) => lookAt(ports, c, now)))));
  let checked = 0;
  for (const [i, found] of looks.entries()) {
    if (!found) continue;
    checked++;
    if (!found.objects.length) continue;
    const cluster = due[i]!;
    drifted.push(found);
    events.push(driftEvent(found, cluster.status.currentVersion));
    if (!found.repaired)
      await recordClusterProblem(
        ports,
        cluster.id,
        cluster,
        { type: MANIFEST_DRIFT_TYPE, title: `Manifest drift: ${found.message}`, detail: found.message },
        now,
      );
  }
  return { summary: { checked, drifted }, events };
}

/** One cluster unless an update holds its lease (it applies the manifests itself). */
async function lookAt(ports: DriftPorts, cluster: Cluster, now: number): Promise<ClusterDrift | undefined> {
  const lease = await ports.progress.getLease(cluster.id);
  return lease && lease.expiresAt > now ? undefined : checkCluster(ports, cluster);
}

/** An invalid value was refused before the first write of the update that applied it; read as the default here. */
function modeOf(items: ConfigItems, clusterId: string): DriftMode {
  try {
    return manifestDrift(items, clusterId);
  } catch {
    return 'report';
  }
}

/** One cluster: undefined when its last run's manifests are not known (never applied by this system). */
async function checkCluster(ports: DriftPorts, cluster: Cluster): Promise<ClusterDrift | undefined> {
  const run = await ports.progress.getRun(cluster.id, cluster.status.currentVersion);
  const key = run?.artifacts.resources;
  const mainKey = run?.artifacts.main;
  if (!run || !key || !mainKey) return undefined;
  const main = await getArtifact(ports.artifacts, mainKey, MainArtifact);
  const mode = modeOf(main.configItems, cluster.id);
  if (mode === 'off') return undefined;
  const resources = await getArtifact(ports.artifacts, key, ResourcesArtifact);
  const reached = run.controlPlane ? withControlPlane(cluster, run.controlPlane) : cluster;
  const kube = ports.forCluster(reached).kube;
  const rendered = resources.manifests.flatMap((file) => file.objects);
  const candidates = await cheapLook(kube, rendered);
  const results = candidates.length ? await kube.apply(candidates, { fieldManager: FIELD_MANAGER, dryRun: true }) : [];
  const objects = results.flatMap((r) =>
    r.action === 'unchanged'
      ? []
      : [{ ref: r.ref, fields: r.action === 'created' ? [{ path: '(deleted)' }] : (r.changes ?? []) }],
  );
  const base = { clusterId: cluster.id, mode, objects };
  if (!objects.length) return { ...base, repaired: false, message: 'no drift' };
  const described = describeDrift(objects);
  const hold = mode === 'repair' ? updateBlock(cluster, await ports.progress.getControls(cluster.id)) : undefined;
  if (mode === 'report' || hold)
    return { ...base, repaired: false, message: `${described}${hold ? ` (not repaired: ${hold.detail})` : ''}` };
  const drift = new Set(results.flatMap((r, i) => (r.action !== 'unchanged' ? [i] : [])));
  await kube.apply(
    candidates.filter((_, i) => drift.has(i)),
    { fieldManager: FIELD_MANAGER },
  );
  return { ...base, repaired: true, message: `repaired ${described}` };
}

/** One LIST per kind; the rendered objects whose fields the live ones do not all hold. */
async function cheapLook(kube: KubeCluster, rendered: readonly KubeObject[]): Promise<KubeObject[]> {
  const live = new Map<string, KubeObject>();
  const namespaced = new Map<string, boolean>();
  for (const kind of new Set(rendered.map((o) => o.kind))) {
    const listed = await kube.list(kind);
    namespaced.set(
      kind,
      listed.some((o) => o.metadata.namespace !== undefined),
    );
    for (const object of listed) live.set(liveKey(object, object.metadata.namespace !== undefined), object);
  }
  return rendered.filter((object) => {
    const scoped = object.metadata.namespace !== undefined || namespaced.get(object.kind) === true;
    return looksDrifted(object, live.get(liveKey(object, scoped)));
  });
}

function driftEvent(found: ClusterDrift, currentVersion: string): FleetEvent {
  return {
    type: 'ManifestDrift',
    detail: {
      clusterId: found.clusterId,
      currentVersion,
      mode: found.mode,
      repaired: found.repaired,
      objects: found.objects.slice(0, 25).map(({ ref, fields }) => ({
        kind: ref.kind,
        ...(ref.namespace ? { namespace: ref.namespace } : {}),
        name: ref.name,
        fields: fields.map((f) => (f.manager ? `${f.path} (by ${f.manager})` : f.path)),
      })),
      message: found.message,
    },
  };
}
