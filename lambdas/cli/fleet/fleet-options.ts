import type { Command } from 'commander';
import type { WorldFlags } from '../cli-world';
import { assumedRoleOption, externalIdOption, tokenOption } from '../reach-options';

/** The flags `clm dispatch` and `clm serve` share: the registry, the config, the world and the fleet's pace. */
export interface FleetFlags extends WorldFlags {
  readonly registry: string;
  readonly directory?: string;
  readonly configSource?: string[];
  readonly include: string;
  readonly exclude: string;
  readonly maxConcurrent?: string;
  readonly maxConcurrentPerAccount?: string;
  readonly maxConcurrentPerRegion?: string;
  readonly startsPerSecond?: string;
  readonly launchesPerSecond?: string;
  readonly launchBurst?: string;
  readonly waveSoak?: string;
  readonly regions?: string;
  readonly waveFailureTolerance?: string;
  readonly waveOrder?: string;
  readonly wavesByCriticality: boolean;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function addFleetOptions(command: Command): Command {
  return command
    .requiredOption('-f, --registry <uri>', 'cluster registry: clusters.yaml path, file://, http(s):// or dynamodb://')
    .option('--directory <path>', 'a single local config directory (the source "main"); not with --config-source')
    .option(
      '--config-source <name:type:location>',
      'config source NAME:git:URL (https:// or file:// for a local repository) or NAME:dir:PATH, repeatable, in order',
      collect,
    )
    .option('--simulate', 'run the updates against the built-in simulated AWS account and clusters')
    .option('--scenario <file>', 'with --simulate: the starting world and faults (examples/scenarios/*.yaml)')
    .option(
      '--sim-advance <duration>',
      'with --simulate: move the simulated clock forward this long first (10m, 6h, 30d): nodes age, due node incidents happen',
    )
    .option('--state <dir>', 'where progress, the fleet state (fleet.json) and the world are kept', '.clm-state')
    .option('--include <regex>', 'infrastructure accounts to manage', '.*')
    .option('--exclude <regex>', 'infrastructure accounts to leave alone (wins over --include)', '^$')
    .option('--max-concurrent <n>', 'cluster updates running at once across the fleet (default 10)')
    .option(
      '--max-concurrent-per-account <n>',
      'cluster updates running at once in one account and region (default: no cap)',
    )
    .option('--max-concurrent-per-region <n>', 'cluster updates running at once in one region (default: no cap)')
    .option('--starts-per-second <n>', 'executions a pass starts per second, 60 s worth per pass (default 25)')
    .option(
      '--launches-per-second <n>',
      'instance launches per second the rolls of one account and region share (default 1.5)',
    )
    .option('--launch-burst <n>', 'launches at once the budget of one account and region allows (default 250)')
    .option(
      '--wave-failure-tolerance <share>',
      'share of a wave that may fail without halting it, e.g. 0.005 (default 0)',
    )
    .option('--regions <names>', 'only the clusters of these regions, comma-separated (default: every region)')
    .option('--wave-soak <duration>', 'how long a finished wave soaks before the next starts, e.g. 30m (default 0s)')
    .option('--wave-order <envs>', 'environments in rollout order (default test,staging,production)')
    .option('--no-waves-by-criticality', 'one wave per environment instead of one per criticality level in it')
    .addOption(tokenOption())
    .addOption(assumedRoleOption())
    .addOption(externalIdOption())
    .option('--kubeconfig <file>', 'kubeconfig for the API servers (real AWS)')
    .option('--bucket <name>', 'S3 bucket for rendered artefacts (real AWS)')
    .option('--region <region>', 'region of the artefact bucket (real AWS)', process.env.AWS_REGION ?? 'eu-central-1');
}
