import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { runClusterUpdate, type ExecutionResult, type TaskEvent } from '../../adapters/local-executor/local-executor';
import { configSourcesFromFlags } from '../../adapters/config-source/create-config-sources';
import { createRegistry } from '../../adapters/registry/create-registry';
import { createSimulatedSetup, type SimulatedSetup } from '../../adapters/wiring/simulated-ports';
import { openFileProgressStore } from '../../adapters/progress/file-progress-store';
import { selectClusters } from '../../core/selection/select-clusters';
import { withStoredStatus } from '../../core/workflow/cluster-status';
import type { Cluster } from '../../core/model/cluster';
import type { Ports } from '../../ports/ports';
import type { Invariants } from '../../sim';
import { CliExit, EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { usage, usageAsync } from '../usage';
import { processHolder } from '../../shared/process-identity';

interface ProvisionOptions {
  readonly registry: string;
  readonly directory?: string;
  readonly configSource?: string[];
  readonly cluster?: string[];
  readonly include: string;
  readonly exclude: string;
  readonly applyOnly?: boolean;
  readonly simulate?: boolean;
  readonly scenario?: string;
  readonly state: string;
  readonly output: 'text' | 'json';
  readonly kubeconfig?: string;
  readonly token?: string;
  readonly bucket?: string;
  readonly region?: string;
}

const EXAMPLES = (verb: string) => `
Examples:
  # The whole system offline: a simulated AWS account and clusters, state kept in .clm-state/
  $ clm ${verb} --simulate --registry examples/clusters.yaml --directory examples/config

  # One cluster, a scenario with a PodDisruptionBudget that blocks for a while, JSON summary
  $ clm ${verb} --simulate --registry examples/clusters.yaml --directory examples/config \\
      --cluster aws:123456789012:eu-central-1:kube-test --scenario examples/scenarios/pdb-blocks.yaml --output json

  # A real account (credentials from the environment), API servers reached with a token
  $ clm ${verb} --registry clusters.yaml --config-source main:git:https://github.com/org/config --token "$TOKEN" --bucket my-clm-bucket

Runs the same state machine (statemachines/cluster-update.asl.json) as the deployed system, in process.
Killing it at any moment is safe: run the same command again and it continues where it stopped.
Exit codes: 0 every cluster succeeded (or had nothing to do), 1 a cluster failed, 2 usage error.`;

export function registerProvisionCommands(program: Command, io: CliIo): void {
  for (const verb of ['provision', 'decommission'] as const) {
    program
      .command(verb)
      .description(
        verb === 'provision'
          ? 'Create or update clusters: stacks, node pools (rolled without disruption), manifests and deletions.'
          : 'Decommission clusters: scale down controllers, delete every stack of the cluster, then the main stack.',
      )
      .requiredOption(
        '-f, --registry <uri>',
        'cluster registry: clusters.yaml path, file://, http(s):// or dynamodb://',
      )
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
      .option('--state <dir>', 'where progress (and with --simulate the world) is kept between runs', '.clm-state')
      .option('--kubeconfig <file>', 'kubeconfig for the API servers (default: api_server_url with --token)')
      .option('--token <token>', 'bearer token for the registry and the API servers')
      .option('--bucket <name>', 'S3 bucket for rendered artefacts (real AWS)')
      .option('--region <region>', 'region of the artefact bucket (real AWS)', process.env.AWS_REGION ?? 'eu-central-1')
      .addOption(
        new Option('-o, --output <format>', 'what to print at the end').choices(['text', 'json']).default('text'),
      )
      .addHelpText('after', EXAMPLES(verb))
      .action(async (options: ProvisionOptions) => {
        const code = await runProvision(verb, options, io);
        if (code !== EXIT.OK) throw new CliExit(code);
      });
  }
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

interface ClusterSummary {
  id: string;
  status: 'succeeded' | 'failed' | 'skipped' | 'unchanged';
  version: string;
  message: string;
  stacks: { name: string; status: string }[];
  nodesReplaced: number;
  pdbViolations: number;
  nodesTerminatedTwice: number;
  stateTransitions: number;
  simulatedSeconds: number;
  problems: { title: string }[];
}

export async function runProvision(
  verb: 'provision' | 'decommission',
  options: ProvisionOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (options.scenario && !options.simulate) throw new UsageError('--scenario needs --simulate');
  const registry = usage(() =>
    createRegistry(options.registry, { cwd: io.cwd, ...(options.token ? { token: options.token } : {}) }),
  );
  const sources = usage(() =>
    configSourcesFromFlags({ configSources: options.configSource, directory: options.directory }, { cwd: io.cwd }),
  );
  const clusters = await usageAsync(() => registry.listClusters());
  const { selected, skipped } = usage(() =>
    selectClusters(clusters, { clusterIds: options.cluster, include: options.include, exclude: options.exclude }),
  );
  for (const s of skipped) io.stderr(`skipping ${s.cluster.id}: ${s.reason}\n`);
  const stateDir = resolve(io.cwd, options.state);

  let sim: SimulatedSetup | undefined;
  let ports: Ports;
  let saveProgress: () => void = () => undefined;
  if (options.simulate) {
    sim = createSimulatedSetup({
      stateDir,
      registry,
      sources,
      clusters: selected,
      ...(options.scenario ? { scenarioFile: resolve(io.cwd, options.scenario) } : {}),
    });
    ports = sim.ports;
  } else {
    if (!options.bucket)
      throw new UsageError('--bucket is required without --simulate (rendered configs are stored there)');
    // Loaded only here: the SDK clients and client-node take seconds to import, which every --simulate
    // run (and every resume after a kill) would otherwise pay.
    const [{ createAwsPorts }, { S3ArtifactStore }, { createAwsClients }] = await Promise.all([
      import('../../adapters/wiring/aws-ports'),
      import('../../adapters/aws/s3-artifact-store'),
      import('../../adapters/aws/aws-clients'),
    ]);
    const clients = createAwsClients({ region: options.region ?? 'eu-central-1' });
    // Progress stays on this machine under --state, so a re-run after a crash continues where it stopped.
    const progress = openFileProgressStore(stateDir);
    saveProgress = progress.save;
    ports = createAwsPorts({
      registry,
      sources,
      region: options.region ?? 'eu-central-1',
      progress: progress.store,
      artifacts: new S3ArtifactStore(clients.s3, { bucket: options.bucket, region: options.region ?? 'eu-central-1' }),
      ...(options.token ? { token: options.token } : {}),
      ...(options.kubeconfig ? { kubeconfig: resolve(io.cwd, options.kubeconfig) } : {}),
    });
  }

  const summaries: ClusterSummary[] = [];
  for (const cluster of selected) {
    const started = ports.clock.now();
    if (sim && verb === 'decommission') {
      // Pods lost with the stacks of a cluster being torn down are not PDB violations.
      sim.decommissioning(cluster.id);
    }
    const before = sim?.world.invariants();
    const print = (line: string) => {
      if (options.output === 'text') io.stdout(`${line}\n`);
    };
    print(`${cluster.id}: ${verb} starting`);
    const eta = rollEta();
    const result: ExecutionResult = await runClusterUpdate(
      { clusterId: cluster.id, action: verb, options: { applyOnly: options.applyOnly ?? false }, trigger: 'cli' },
      {
        ports,
        // This process (host, pid, start time): a second process is refused while this one lives; a re-run after
        // a crash takes the lease over at once, because the dead pid is gone (shared/process-identity.ts).
        executionId: processHolder(),
        advanceClock: sim ? (seconds) => sim!.world.advance(seconds * 1000) : undefined,
        onTask: (event) => {
          sim?.save();
          saveProgress();
          print(progressLine(cluster, event, ports.clock.now() - started, eta));
        },
      },
    );
    sim?.save();
    summaries.push(await summarize(cluster, result, ports, sim, started, before));
    const last = summaries[summaries.length - 1]!;
    print(`${cluster.id}: ${last.status} — ${last.message}`);
  }

  if (options.output === 'json') {
    io.stdout(`${JSON.stringify({ clusters: summaries }, null, 2)}\n`);
  } else {
    io.stdout(
      `\n${summaries.map((s) => `${s.status.padEnd(9)} ${s.id}  ${s.version || '-'}  nodes replaced ${s.nodesReplaced}, PDB violations ${s.pdbViolations}, state transitions ${s.stateTransitions}${sim ? `, simulated ${formatDuration(s.simulatedSeconds)}` : ''}`).join('\n')}\n`,
    );
  }
  return summaries.some((s) => s.status === 'failed') ? EXIT.FAILED : EXIT.OK;
}

function progressLine(cluster: Cluster, event: TaskEvent, elapsedMs: number, eta: RollEta): string {
  const output = event.output as { message?: string; decision?: string; replaced?: number; total?: number } | undefined;
  const message = output?.message ?? JSON.stringify(output);
  const roll =
    event.task === 'RollNodePool' && output?.replaced !== undefined && output.total !== undefined
      ? eta(message.split(':')[0] ?? '', output.replaced, output.total, elapsedMs)
      : '';
  return `  [${formatDuration(Math.round(elapsedMs / 1000)).padStart(7)}] ${event.stateName}: ${message}${roll}`;
}

/** Gives the `; ETA …` suffix of a roll's progress line (or ''), from (pool, replaced, total, elapsed ms). */
export type RollEta = (pool: string, replaced: number, total: number, nowMs: number) => string;

/**
 * Live ETA of node rolls: the time per replaced node seen by this process so far (from the pool's first
 * step here, so a resumed run measures its own pace) times the nodes left. Nothing before the first
 * replacement, nor once every node is replaced.
 */
export function rollEta(): RollEta {
  const first = new Map<string, { at: number; replaced: number }>();
  return (pool, replaced, total, nowMs) => {
    const start = first.get(pool);
    if (!start) first.set(pool, { at: nowMs, replaced });
    const done = replaced - (start?.replaced ?? replaced);
    if (!start || done <= 0 || replaced >= total) return '';
    return `; ETA ${formatDuration(Math.round((((nowMs - start.at) / done) * (total - replaced)) / 1000))}`;
  };
}

async function summarize(
  cluster: Cluster,
  result: ExecutionResult,
  ports: Ports,
  sim: SimulatedSetup | undefined,
  started: number,
  before: Invariants | undefined,
): Promise<ClusterSummary> {
  const current = await withStoredStatus(ports, cluster);
  const output = result.output ?? {};
  const run = (output.run ?? {}) as { decision?: string; targetVersion?: string; message?: string };
  const targetVersion = run.targetVersion ?? '';
  const record = targetVersion ? await ports.progress.getRun(cluster.id, targetVersion) : undefined;
  const invariants = sim?.world.invariants();
  const stacks = sim
    ? sim.world
        .describe(cluster.id)
        .stacks.map((s: { name: string; status: string }) => ({ name: s.name, status: s.status }))
    : Object.entries(record?.stacks ?? {}).map(([name, s]) => ({ name, status: s.status }));
  const status: ClusterSummary['status'] =
    result.status === 'FAILED'
      ? 'failed'
      : run.decision === 'NOOP'
        ? 'unchanged'
        : run.decision === 'SKIP'
          ? 'skipped'
          : 'succeeded';
  const final = (output.final ?? {}) as { message?: string };
  return {
    id: cluster.id,
    status,
    version: current.status.currentVersion,
    message:
      result.status === 'FAILED'
        ? `${result.error?.Error}: ${result.error?.Cause ?? ''}`
        : (final.message ?? run.message ?? ''),
    stacks,
    nodesReplaced: Object.values(record?.pools ?? {}).reduce((n, p) => n + p.replaced, 0),
    // The world counts since it was created; this run's share is the difference.
    pdbViolations: (invariants?.pdbViolations ?? 0) - (before?.pdbViolations ?? 0),
    nodesTerminatedTwice: (invariants?.nodesTerminatedTwice ?? 0) - (before?.nodesTerminatedTwice ?? 0),
    stateTransitions: result.stats.stateTransitions,
    simulatedSeconds: Math.round((ports.clock.now() - started) / 1000),
    problems: current.status.problems.map((p) => ({ title: p.title })),
  };
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  return m < 60
    ? `${m}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
