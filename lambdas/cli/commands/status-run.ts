// `clm status`'s implementation, loaded by its action (status.ts declares the command).
import { configSourcesFromFlags } from '../../adapters/config-source/create-config-sources';
import { formatHalts } from '../../core/dispatch/fleet-report';
import type { FleetSnapshot } from '../../core/dispatch/fleet-state';
import { resolveFleetTargets } from '../../core/dispatch/fleet-targets';
import type { Cluster } from '../../core/model/cluster';
import { createRegistry } from '../../adapters/registry/create-registry';
import { formatClusterReport } from '../../core/status/cluster-report';
import { selectClusters } from '../../core/selection/select-clusters';
import { withStoredStatus } from '../../tasks/step/cluster-status';
import type { Ports } from '../../ports/ports';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { usage, usageAsync } from '../usage';
import { openStateStores } from '../state-stores';
import type { StatusOptions } from './status';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderFleetPage } from '../../core/fleet-page/render-fleet-page';
import { fleetPageOf, fleetReports } from '../../tasks/fleet/fleet-page';

export async function runStatus(options: StatusOptions, io: CliIo): Promise<ExitCode> {
  const registry = usage(() =>
    createRegistry(options.registry, { cwd: io.cwd, ...(options.token ? { token: options.token } : {}) }),
  );
  const clusters = await registry.listClusters().catch((error: Error) => {
    throw new UsageError(error.message, { cause: error });
  });
  const { selected } = usage(() => selectClusters(clusters, { clusterIds: options.cluster }));
  const state = await usageAsync(() =>
    openStateStores(options.state, { cwd: io.cwd, ...(options.region ? { region: options.region } : {}) }),
  );
  const store = state.progress;
  const fleet = await state.fleet!.loadFleet();
  const ports = { registry, progress: store } as Pick<Ports, 'registry' | 'progress'>;
  const now = state.clocks();
  const clustersNow = await Promise.all(selected.map((listed) => withStoredStatus(ports, listed)));
  const targets = await targetVersions(clustersNow, fleet, options, io);
  const reports = await fleetReports(store, clustersNow, fleet, targets, now);
  if (options.html) {
    const page = fleetPageOf(clustersNow, reports, {
      fleet,
      settings: state.fleet!.settings,
      now: now.system,
      targets,
    });
    const file = resolve(io.cwd, options.html);
    usage(() => writeFileSync(file, renderFleetPage(page)));
    io.stderr(`fleet page written to ${file}\n`);
  }
  const fleetLines = formatHalts(fleet.halts, fleet.overrides);
  io.stdout(
    options.output === 'json'
      ? `${JSON.stringify({ clusters: reports, fleet: { halts: fleet.halts, overrides: fleet.overrides } }, null, 2)}\n`
      : `${reports.map((r) => formatClusterReport(r) + (r.halt ? `\n  ${r.halt}` : '')).join('\n')}\n${fleetLines.length ? `fleet:\n${fleetLines.join('\n')}\n` : ''}`,
  );
  return EXIT.OK;
}

/**
 * Each cluster's target, for the halt lines: computed from the config sources when given, else the one its last
 * dispatched execution or its status (next version) names; a cluster a halt holds back before it ever started
 * needs the sources.
 */
async function targetVersions(
  clusters: readonly Cluster[],
  fleet: FleetSnapshot,
  options: StatusOptions,
  io: CliIo,
): Promise<Map<string, string | undefined>> {
  const known = new Map(
    clusters.map((c) => [
      c.id,
      fleet.clusters.get(c.id)?.execution?.targetVersion ?? (c.status.nextVersion || undefined),
    ]),
  );
  if (!fleet.halts.length || (!options.directory && !options.configSource?.length)) return known;
  const sources = usage(() =>
    configSourcesFromFlags({ configSources: options.configSource, directory: options.directory }, { cwd: io.cwd }),
  );
  for (const [id, target] of await resolveFleetTargets(clusters, sources)) {
    if (target.ok) known.set(id, target.targetVersion);
  }
  return known;
}
