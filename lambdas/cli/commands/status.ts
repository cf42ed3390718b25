import type { Command } from 'commander';
import { Option } from 'commander';
import type { CliIo } from '../io';
import { tokenOption } from '../reach-options';
import { stateOption } from '../state-option';

export interface StatusOptions {
  readonly registry: string;
  readonly cluster?: string[];
  readonly state: string;
  readonly output: 'text' | 'json';
  readonly token?: string;
  readonly region?: string;
  readonly directory?: string;
  readonly configSource?: string[];
  /** Also write the fleet page (one static HTML file) here. */
  readonly html?: string;
}

const EXAMPLES = `
Examples:
  # After (or during) a simulated run: versions, problems, the run in progress and what blocks it
  $ clm status --registry examples/clusters.yaml

  # The fleet page: waves, versions, what runs and what blocks, problems, links to executions
  $ clm status --registry examples/clusters.yaml --html fleet.html

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
    .option('--html <file>', 'also write the fleet page: one static HTML file, no server, no external assets')
    .addHelpText('after', EXAMPLES)
    .action(async (options: StatusOptions) => {
      const { runStatus } = await import('./status-run');
      await runStatus(options, io);
    });
}
