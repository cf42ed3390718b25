import type { Command } from 'commander';
import { Option } from 'commander';
import { configSourcesFromFlags } from '../../adapters/config-source/create-config-sources';
import { formatHalts, haltLine } from '../../core/dispatch/fleet-report';
import type { FleetSnapshot } from '../../core/dispatch/fleet-state';
import { resolveFleetTargets } from '../../core/dispatch/fleet-targets';
import type { Cluster } from '../../core/model/cluster';
import { createRegistry } from '../../adapters/registry/create-registry';
import { clusterReport, formatClusterReport } from '../../core/status/cluster-report';
import { selectClusters } from '../../core/selection/select-clusters';
import { withStoredStatus } from '../../tasks/step/cluster-status';
import type { Ports } from '../../ports/ports';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { usage, usageAsync } from '../usage';
import { openStateStores, stateOption } from '../state-stores';
import { tokenOption } from '../reach-options';

interface StatusOptions {
  readonly registry: string;
  readonly cluster?: string[];
  readonly state: string;
  readonly output: 'text' | 'json';
  readonly token?: string;
  readonly region?: string;
  readonly directory?: string;
  readonly configSource?: string[];
}

const EXAMPLES = `
Examples:
  # After (or during) a simulated run: versions, problems, the run in progress and what blocks it
  $ clm status --registry examples/clusters.yaml

  # One cluster, as JSON
  $ clm status --registry examples/clusters.yaml --cluster aws:123456789012:eu-central-1:kube-test --output json

  # With the config sources of clm serve / clm dispatch: also which clusters a halted wave holds back
  $ clm status --registry clusters.yaml --config-source main:git:file:///srv/git/acme/cluster-config.git

Reads the registry, the progress and the fleet state kept under --state (the directory clm provision, dispatch
and serve use); changes nothing. A halted rollout is shown with its reason (HALTED at <version>, wave …), and
under each cluster it holds back, or whose failure halts it.`;

export function registerStatusCommand(program: Command, io: CliIo): void {
  program
    .command('status')
    .description(
      "Show each cluster's versions, problems, lease and the progress of its current or last run (read-only).",
    )
    .requiredOption('-f, --registry <uri>', 'cluster registry: clusters.yaml path, file://, http(s):// or dynamodb://')
    .option('--cluster <id>', 'only this cluster id, repeatable', (value: string, previous: string[] | undefined) => [
      ...(previous ?? []),
      value,
    ])
    .addOption(stateOption('where progress is kept: a directory, or the deployed table'))
    .option('--region <region>', 'region of the deployed table (--state dynamodb://)', process.env.AWS_REGION)
    .addOption(tokenOption('bearer token for an HTTP registry'))
    .option('--directory <path>', 'with the config: show which clusters a halt holds back (like --config-source)')
    .option(
      '--config-source <name:type:location>',
      'the config sources, to compute targets (repeatable)',
      (v: string, p: string[] | undefined) => [...(p ?? []), v],
    )
    .addOption(new Option('-o, --output <format>', 'what to print').choices(['text', 'json']).default('text'))
    .addHelpText('after', EXAMPLES)
    .action(async (options: StatusOptions) => {
      await runStatus(options, io);
    });
}

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
  const reports = [];
  for (const cluster of clustersNow) {
    const version = cluster.status.nextVersion || cluster.status.currentVersion;
    const run = version ? await store.getRun(cluster.id, version) : undefined;
    const report = clusterReport(
      cluster,
      run,
      await store.getLease(cluster.id),
      await store.getControls(cluster.id),
      now,
    );
    const halt = haltLine({ id: cluster.id, targetVersion: targets.get(cluster.id) }, fleet.halts);
    reports.push({ ...report, ...(halt ? { halt: halt.trim() } : {}) });
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
