import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { openFileProgressStore } from '../../adapters/progress/file-progress-store';
import { createRegistry } from '../../adapters/registry/create-registry';
import { clusterReport, formatClusterReport } from '../../core/status/cluster-report';
import { selectClusters } from '../../core/selection/select-clusters';
import { withStoredStatus } from '../../tasks/kit/cluster-status';
import type { Ports } from '../../ports/ports';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { usage } from '../usage';

interface StatusOptions {
  readonly registry: string;
  readonly cluster?: string[];
  readonly state: string;
  readonly output: 'text' | 'json';
  readonly token?: string;
}

const EXAMPLES = `
Examples:
  # After (or during) a simulated run: versions, problems, the run in progress and what blocks it
  $ clm status --registry examples/clusters.yaml

  # One cluster, as JSON
  $ clm status --registry examples/clusters.yaml --cluster aws:123456789012:eu-central-1:kube-test --output json

Reads the registry and the progress kept under --state (the same directory clm provision uses); changes nothing.`;

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
    .option('--state <dir>', 'where clm provision keeps progress', '.clm-state')
    .option('--token <token>', 'bearer token for an HTTP registry')
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
  const { store } = openFileProgressStore(resolve(io.cwd, options.state));
  const ports = { registry, progress: store } as Pick<Ports, 'registry' | 'progress'>;
  const now = Date.now();
  const reports = [];
  for (const listed of selected) {
    const cluster = await withStoredStatus(ports, listed);
    const version = cluster.status.nextVersion || cluster.status.currentVersion;
    const run = version ? await store.getRun(cluster.id, version) : undefined;
    reports.push(
      clusterReport(cluster, run, await store.getLease(cluster.id), await store.getControls(cluster.id), now),
    );
  }
  io.stdout(
    options.output === 'json'
      ? `${JSON.stringify({ clusters: reports }, null, 2)}\n`
      : `${reports.map(formatClusterReport).join('\n')}\n`,
  );
  return EXIT.OK;
}
