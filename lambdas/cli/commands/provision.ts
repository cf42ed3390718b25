import type { Command } from 'commander';
import { Option } from 'commander';
import { configSourcesFromFlags } from '../../adapters/config-source/create-config-sources';
import { createRegistry } from '../../adapters/registry/create-registry';
import { selectClusters } from '../../core/selection/select-clusters';
import type { Cluster } from '../../core/model/cluster';
import { CliExit, EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { onInterrupt } from '../fleet/interrupt';
import { executionOptions, runOne } from '../provision/run-one';
import { parseRollbackSkips } from '../../core/stacks/stack-recovery';
import { runRemote } from '../remote/remote-provision';
import { remoteServices } from '../remote/remote-services';
import type { ConfigSource } from '../../ports/config-source';
import { openCliWorld, type CliWorld, type WorldFlags } from '../cli-world';
import type { Registry } from '../../ports/registry';
import { formatSummaries, type ClusterSummary } from '../provision/summary';
import { usage, usageAsync } from '../usage';
import { assumedRoleOption, externalIdOption, tokenOption } from '../reach-options';
import { simulatedStateOf, stateOption, stateTable } from '../state-stores';

export interface ProvisionOptions extends WorldFlags {
  readonly registry: string;
  readonly directory?: string;
  readonly configSource?: string[];
  readonly cluster?: string[];
  readonly include: string;
  readonly exclude: string;
  readonly applyOnly?: boolean;
  /** provision: `STACK:LogicalId` resources ContinueUpdateRollback may skip. */
  readonly skipRollbackResources?: string[];
  /** decommission: keep the cluster's unattached volumes. */
  readonly keepVolumes?: boolean;
  readonly output: 'text' | 'json';
  /** Against real AWS with `--state DIR`: take the leases there although a deployed CLM cannot see them. */
  readonly localLease?: boolean;
  /** `--remote ARN`: start the deployed state machine instead of running it here. */
  readonly remote?: string;
  readonly follow: boolean;
}

const EXAMPLES = (verb: string) => `
Examples:
  # The whole system offline: a simulated AWS account and clusters, state kept in .clm-state/
  $ clm ${verb} --simulate --registry examples/clusters.yaml --directory examples/config

  # One cluster, a scenario with a PodDisruptionBudget that blocks for a while, JSON summary
  $ clm ${verb} --simulate --registry examples/clusters.yaml --directory examples/config \\
      --cluster aws:123456789012:eu-central-1:kube-test --scenario examples/scenarios/pdb-blocks.yaml --output json

  # A real account (credentials from the environment), API servers reached with a token; the leases in the deployed
  # table (CLM_STATE, or --state dynamodb://TABLE), so this run and the service never update one cluster at once
  $ CLM_STATE=dynamodb://clm-progress clm ${verb} --registry clusters.yaml \\
      --config-source main:git:https://github.com/org/config --token "$TOKEN" --bucket my-clm-bucket

Runs the same state machine (statemachines/cluster-update.asl.json) as the deployed system, in process.
Killing it at any moment is safe: run the same command again and it continues where it stopped.
Exit codes: 0 every cluster succeeded (or had nothing to do), 1 a cluster failed, 2 usage error, 3 a cluster was
skipped or held (its lease is held by another run, it is paused or aborted, or cluster_update_block blocks it,
before the run or at a safe point during it) and none failed, 130 stopped by Ctrl-C or SIGTERM: after the task running
then (a safe point), with the lease released — run the same command again to continue (Ctrl-C twice exits at once).`;

export function registerProvisionCommands(program: Command, io: CliIo): void {
  for (const verb of ['provision', 'decommission'] as const) {
    const command = program
      .command(verb)
      .description(
        verb === 'provision'
          ? 'Create or update clusters: stacks, node pools (rolled without disruption), manifests and deletions.'
          : 'Decommission clusters: scale down controllers, delete every stack of the cluster, then the main stack.',
      );
    addClusterFlags(command)
      .addOption(
        new Option(
          '--remote <state-machine-arn>',
          'start the deployed cluster-update state machine for the selected clusters and follow it (no local run)',
        ).env('CLM_CLUSTER_UPDATE_ARN'),
      )
      .option('--no-follow', 'with --remote: start the executions and return')
      .option(
        '--local-lease',
        'against real AWS with --state DIR: take the leases in that directory although a deployed CLM cannot see them',
      );
    if (verb === 'provision')
      command.option(
        '--skip-rollback-resources <STACK:LogicalId>',
        'a resource ContinueUpdateRollback may skip when STACK is found in UPDATE_ROLLBACK_FAILED (repeatable or comma list; nothing is skipped unless named)',
        collect,
      );
    else
      command.option(
        '--keep-volumes',
        "keep the cluster's unattached EBS volumes (load balancers, their security groups and ENIs are still deleted)",
      );
    command.addHelpText('after', EXAMPLES(verb)).action(async (options: ProvisionOptions, self: Command) => {
      const code = await runProvision(verb, withStateOf(options, self), io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
  }
}

/** `--simulate` keeps its world in a directory: a CLM_STATE naming the deployed table is not its default. */
export function withStateOf<T extends ProvisionOptions>(options: T, command: Command): T {
  return options.simulate
    ? { ...options, state: simulatedStateOf(options.state, command.getOptionValueSource('state')) }
    : options;
}

/** The flags of `provision`, shared by every command that acts on the clusters of a registry (`plan`). */
export function addClusterFlags(command: Command): Command {
  return command
    .requiredOption('-f, --registry <uri>', 'cluster registry: clusters.yaml path, file://, http(s):// or dynamodb://')
    .option('--directory <path>', 'a single local config directory (the source "main"); not with --config-source')
    .option(
      '--config-source <name:type:location>',
      'config source NAME:dir:PATH or NAME:git:URL, repeatable, in order',
      collect,
    )
    .option(
      '--cluster <id>',
      'only this cluster id, repeatable (default: every cluster that passes --include/--exclude)',
      collect,
    )
    .option('--include <regex>', 'infrastructure accounts to process', '.*')
    .option('--exclude <regex>', 'infrastructure accounts to skip (wins over --include)', '^$')
    .option('--apply-only', 'apply stacks and manifests but never roll nodes')
    .option('--simulate', 'run against the built-in simulated AWS account and clusters (no AWS needed)')
    .option('--scenario <file>', 'with --simulate: the starting world and faults (examples/scenarios/*.yaml)')
    .addOption(
      stateOption(
        'where progress and leases (and with --simulate the world, always in a directory) are kept between runs; the deployed table shares leases with the service',
      ),
    )
    .option('--kubeconfig <file>', 'kubeconfig for the API servers (default: api_server_url with --token)')
    .addOption(tokenOption())
    .addOption(assumedRoleOption())
    .addOption(externalIdOption())
    .option('--bucket <name>', 'S3 bucket for rendered artefacts (real AWS)')
    .option(
      '--stack-releases <dir|s3://bucket/prefix>',
      'where released cluster stacks (cluster_stack_version: vN@sha256:…) are read (default: the artefact bucket, stack-releases/)',
    )
    .option('--region <region>', 'region of the artefact bucket (real AWS)', process.env.AWS_REGION ?? 'eu-central-1')
    .addOption(
      new Option('-o, --output <format>', 'what to print at the end').choices(['text', 'json']).default('text'),
    );
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
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
