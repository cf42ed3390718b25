import { consoleLink } from '../../core/dispatch/console-link';
import { haltLine } from '../../core/dispatch/fleet-report';
import type { FleetSettings } from '../../core/dispatch/fleet-settings';
import type { FleetSnapshot } from '../../core/dispatch/fleet-state';
import { FLEET_PAGE_CONTENT_TYPE, FLEET_PAGE_KEY } from '../../core/fleet-page/fleet-page-object';
import { fleetPageModel, type FleetPage } from '../../core/fleet-page/fleet-page-model';
import { renderFleetPage } from '../../core/fleet-page/render-fleet-page';
import type { Cluster } from '../../core/model/cluster';
import { clusterReport, type ClusterReport } from '../../core/status/cluster-report';
import type { Clocks } from '../../core/status/lease-state';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { Clock } from '../../ports/clock';
import type { FleetStore } from '../../ports/fleet-store';
import type { Lease, ProgressStore } from '../../ports/progress-store';

/** Clusters whose run and lease are read at once. */
const READS_AT_ONCE = 16;

export type FleetReport = ClusterReport & { readonly halt?: string };

/**
 * Each cluster's report as `clm status` shows it (its run of the version it moves to, its lease, its controls) with
 * the halt line that holds it back; `targets` are the versions the halts are judged for.
 */
export async function fleetReports(
  progress: Pick<ProgressStore, 'getRun' | 'getLease' | 'getControls'>,
  clusters: readonly Cluster[],
  fleet: FleetSnapshot,
  targets: ReadonlyMap<string, string | undefined>,
  now: Clocks,
): Promise<FleetReport[]> {
  const reportOf = async (cluster: Cluster): Promise<FleetReport> => {
    const version = runVersion(cluster);
    const [run, lease, controls] = await Promise.all([
      version ? progress.getRun(cluster.id, version) : undefined,
      progress.getLease(cluster.id),
      progress.getControls(cluster.id),
    ]);
    return withHalt(clusterReport(cluster, run, lease, controls, now), cluster, fleet, targets);
  };
  const reports: FleetReport[] = [];
  for (let i = 0; i < clusters.length; i += READS_AT_ONCE)
    reports.push(...(await Promise.all(clusters.slice(i, i + READS_AT_ONCE).map(reportOf))));
  return reports;
}

/**
 * The reports as far as the fleet page shows them, read in batches: every cluster's controls, its run only when
 * unfinished (the page shows nothing of a finished run) and its lease only then (the page shows a lease only beside
 * a run in progress). An idle fleet costs two batched reads per 100 clusters; the page is the one `fleetReports`
 * gives (a test holds them equal).
 */
export async function fleetPageReports(
  progress: Pick<ProgressStore, 'getRuns' | 'getLeases' | 'getControlsOf'>,
  clusters: readonly Cluster[],
  fleet: FleetSnapshot,
  targets: ReadonlyMap<string, string | undefined>,
  now: Clocks,
): Promise<FleetReport[]> {
  const keys = clusters.flatMap((c) => {
    const version = runVersion(c);
    return version ? [{ clusterId: c.id, targetVersion: version }] : [];
  });
  const [unfinished, controls] = await Promise.all([
    progress.getRuns(keys, { unfinished: true }),
    progress.getControlsOf(clusters.map((c) => c.id)),
  ]);
  const runs = new Map(unfinished.map((run) => [run.clusterId, run]));
  const leases = runs.size ? await progress.getLeases([...runs.keys()]) : new Map<string, Lease>();
  return clusters.map((cluster) => {
    const report = clusterReport(cluster, runs.get(cluster.id), leases.get(cluster.id), controls.get(cluster.id), now);
    return withHalt(report, cluster, fleet, targets);
  });
}

/** The version whose run `clm status` shows: the one the cluster moves to, else the one it is at. */
function runVersion(cluster: Cluster): string {
  return cluster.status.nextVersion || cluster.status.currentVersion;
}

function withHalt(
  report: ClusterReport,
  cluster: Cluster,
  fleet: FleetSnapshot,
  targets: ReadonlyMap<string, string | undefined>,
): FleetReport {
  const halt = haltLine({ id: cluster.id, targetVersion: targets.get(cluster.id) }, fleet.halts);
  return { ...report, ...(halt ? { halt: halt.trim() } : {}) };
}

/** The fleet page of these reports (the one `clm status --html` writes and the dispatcher publishes). */
export function fleetPageOf(
  clusters: readonly Cluster[],
  reports: readonly FleetReport[],
  context: {
    readonly fleet: FleetSnapshot;
    readonly settings: FleetSettings;
    readonly now: number;
    readonly targets: ReadonlyMap<string, string | undefined>;
  },
): FleetPage {
  return fleetPageModel({
    clusters,
    reports: new Map(reports.map((r) => [r.id, r])),
    ...context,
    executionLink: consoleLink,
  });
}

export interface PagePorts {
  readonly progress: ProgressStore;
  readonly fleet: FleetStore;
  readonly artifacts: ArtifactStore;
  readonly clock: Clock;
}

/**
 * The dispatcher's last step: the fleet as this pass left it (fleet states re-read), rendered and written to the
 * artefact bucket's `fleet/index.html` as one self-contained HTML object. Returns where it went. Reads in batches
 * only what the page shows (fleetPageReports).
 */
export async function publishFleetPage(
  ports: PagePorts,
  clusters: readonly Cluster[],
  targets: ReadonlyMap<string, string | undefined>,
): Promise<string> {
  const now = ports.clock.now();
  const clocks: Clocks = ports.clock.kind === 'simulated' ? { system: now, simulated: now } : { system: now };
  const fleet = await ports.fleet.loadFleet();
  const reports = await fleetPageReports(ports.progress, clusters, fleet, targets, clocks);
  const page = fleetPageOf(clusters, reports, { fleet, settings: ports.fleet.settings, now, targets });
  await ports.artifacts.put(FLEET_PAGE_KEY, renderFleetPage(page), { contentType: FLEET_PAGE_CONTENT_TYPE });
  return ports.artifacts.locationOf?.(FLEET_PAGE_KEY) ?? FLEET_PAGE_KEY;
}
