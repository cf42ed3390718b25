// `clm provision` and `clm decommission`: the implementation, loaded by their action (provision.ts declares them).
import { configSourcesFromFlags } from '../../adapters/config-source/create-config-sources';
import { createRegistry } from '../../adapters/registry/create-registry';
import { selectClusters } from '../../core/selection/select-clusters';
import type { Cluster } from '../../core/model/cluster';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { onInterrupt } from '../fleet/interrupt';
import { executionOptions, runOne } from '../provision/run-one';
import { parseRollbackSkips } from '../../core/stacks/stack-recovery';
import { runRemote } from '../remote/remote-provision';
import { remoteServices } from '../remote/remote-services';
import type { ConfigSource } from '../../ports/config-source';
import { openCliWorld, type CliWorld } from '../cli-world';
import type { Registry } from '../../ports/registry';
import { formatSummaries, type ClusterSummary } from '../provision/summary';
import { usage, usageAsync } from '../usage';
import { simulatedStateOf, stateTable } from '../state-stores';
import type { Command } from 'commander';
import type { ProvisionOptions } from './provision';

/** `--simulate` keeps its world in a directory: a CLM_STATE naming the deployed table is not its default. */
export function withStateOf<T extends ProvisionOptions>(options: T, command: Command): T {
  return options.simulate
    ? { ...options, state: simulatedStateOf(options.state, command.getOptionValueSource('state')) }
    : options;
}

export async function runProvision(
  verb: 'provision' | 'decommission',
  options: ProvisionOptions,
  io: CliIo,
): Promise<ExitCode> {
  // A malformed entry is refused before anything is read or written.
  usage(() => parseRollbackSkips(options.skipRollbackResources ?? []));
  if (options.remote && options.stackReleases)
    throw new UsageError(
      "--stack-releases is read by local runs; the deployed tasks read released stacks from the artefact bucket's stack-releases/ (clm stack release --bucket)",
    );
  if (!options.remote) oneWriter(options, io);
  const { selected, registry, sources, knownClusterIds } = await selectedClusters(options, io);
  checkRolledPools(selected, options.nodeRoll?.pools);
  if (options.remote) return remoteProvision(verb, options, selected, sources, io);
  const world = await openCliWorld(options, { registry, sources, clusters: selected, knownClusterIds, io });
  const summaries: ClusterSummary[] = [];
  // Ctrl-C or SIGTERM: stop after the task running now (a safe point), release the lease, say how to go on.
  let interrupted = false;
  const removeHandlers = onInterrupt(
    () => (interrupted = true),
    (line) => io.stderr(`${line}\n`),
  );
  try {
    for (const cluster of selected) {
      const summary = await runOne(verb, cluster, world, options, io, () => interrupted);
      if (summary === 'stopped') return EXIT.INTERRUPTED;
      summaries.push(summary);
    }
  } finally {
    removeHandlers();
  }
  io.stdout(
    options.output === 'json'
      ? `${JSON.stringify({ clusters: summaries }, null, 2)}\n`
      : formatSummaries(summaries, world.simulated),
  );
  return exitCodeOf(summaries);
}

/**
 * One writer per cluster, CLI and service: a run against real AWS takes its leases where a deployed CLM sees them —
 * `--state dynamodb://TABLE` or CLM_STATE. A lease in a directory is refused, unless `--local-lease` says that no
 * deployed CLM manages these clusters; then the run says so on stderr, every time.
 */
function oneWriter(options: ProvisionOptions, io: CliIo): void {
  if (options.simulate || stateTable(options.state)) return;
  if (!options.localLease)
    throw new UsageError(
      `--state ${options.state}: a run against real AWS must take its leases where a deployed CLM sees them, or both may update one cluster at once. Give --state dynamodb://TABLE (the ClmStateful stack's table) or set CLM_STATE=dynamodb://TABLE; if no deployed CLM manages these clusters, pass --local-lease`,
    );
  io.stderr(
    `WARNING: --local-lease: the leases of this run are kept in ${options.state} only. A deployed CLM cannot see them and may update the same clusters at the same time; use --state dynamodb://TABLE (or CLM_STATE) where one runs.\n`,
  );
}

/** The registry's clusters that pass the selection flags (skipped ones said on stderr), with the registry and sources. */
async function selectedClusters(
  options: ProvisionOptions,
  io: CliIo,
): Promise<{ selected: Cluster[]; registry: Registry; sources: ConfigSource[]; knownClusterIds: string[] }> {
  const registry = usage(() =>
    createRegistry(options.registry, { cwd: io.cwd, ...(options.token ? { token: options.token } : {}) }),
  );
  const sources = usage(() =>
    configSourcesFromFlags({ configSources: options.configSource, directory: options.directory }, { cwd: io.cwd }),
  );
  const clusters = await usageAsync(() => registry.listClusters());
  if (clusters.length === 0) throw new UsageError(`no clusters: ${registry.description} lists none`);
  const { selected, skipped } = usage(() =>
    selectClusters(clusters, { clusterIds: options.cluster, include: options.include, exclude: options.exclude }),
  );
  for (const s of skipped) io.stderr(`skipping ${s.cluster.id}: ${s.reason}\n`);
  return { selected: [...selected], registry, sources: [...sources], knownClusterIds: clusters.map((c) => c.id) };
}

/** The selected clusters and the world they live in (`plan` acts on them without running an update). */
export async function openSelectedClusters(
  options: ProvisionOptions,
  io: CliIo,
): Promise<{ selected: Cluster[]; world: CliWorld }> {
  const { selected, registry, sources, knownClusterIds } = await selectedClusters(options, io);
  const world = await openCliWorld(options, { registry, sources, clusters: selected, knownClusterIds, io });
  return { selected, world };
}

async function remoteProvision(
  verb: 'provision' | 'decommission',
  options: ProvisionOptions,
  clusters: readonly Cluster[],
  sources: readonly ConfigSource[],
  io: CliIo,
): Promise<ExitCode> {
  if (options.simulate)
    throw new UsageError('--remote starts the deployed state machine; it does not go with --simulate');
  const services = await usageAsync(() => remoteServices(options.remote!));
  const summaries = await runRemote(clusters, sources, services, {
    verb,
    applyOnly: options.applyOnly ?? false,
    extra: (({ applyOnly: _a, ...rest }) => rest)(executionOptions(verb, options)),
    follow: options.follow,
    print: (line) => (options.output === 'text' ? io.stdout(`${line}\n`) : undefined),
    sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
    pollMs: 5000,
  });
  io.stdout(
    options.output === 'json'
      ? `${JSON.stringify({ clusters: summaries }, null, 2)}\n`
      : summaries.map((s) => `${s.status.padEnd(9)} ${s.id}  ${s.message}\n`).join(''),
  );
  return exitCodeOf(summaries);
}

/** A failure wins over a skip; a skipped cluster is not a success (scripts and CI steps must see it). */
export function exitCodeOf(summaries: readonly Pick<ClusterSummary, 'status'>[]): ExitCode {
  if (summaries.some((s) => s.status === 'failed')) return EXIT.FAILED;
  return summaries.some((s) => s.status === 'skipped' || s.status === 'held') ? EXIT.SKIPPED : EXIT.OK;
}

/** `clm roll --pool`: every pool named is a pool of the cluster (else nothing runs). */
function checkRolledPools(clusters: readonly Cluster[], pools: readonly string[] | undefined): void {
  for (const cluster of clusters)
    for (const pool of pools ?? [])
      if (!cluster.nodePools.some((p) => p.name === pool))
        throw new UsageError(
          `--pool ${pool}: cluster ${cluster.id} has no such node pool (its pools: ${cluster.nodePools.map((p) => p.name).join(', ') || 'none'})`,
        );
}
