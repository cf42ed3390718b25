import type { Command } from 'commander';
import { Option } from 'commander';
import { CliExit, EXIT, type CliIo } from '../io';
import type { WorldFlags } from '../cli-world';
import { assumedRoleOption, externalIdOption, tokenOption } from '../reach-options';
import { optimizeHotCode } from '../optimizing-compiler';
import { stateOption } from '../state-option';
import type { UpdateOptions } from '../../contracts/cluster-update';

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
  /** `clm roll --force`: the node roll the execution carries. */
  readonly nodeRoll?: NonNullable<UpdateOptions['nodeRoll']>;
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
      const { runProvision, withStateOf } = await import('./provision-run');
      optimizeHotCode();
      const code = await runProvision(verb, withStateOf(options, self), io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
  }
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
    .option(
      '--sim-advance <duration>',
      'with --simulate: move the simulated clock forward this long before the run (10m, 6h, 30d): nodes age, due node incidents happen',
    )
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
