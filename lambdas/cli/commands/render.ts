import type { Command } from 'commander';
import { Option } from 'commander';
import { CliExit, EXIT } from '../io';
import type { CliIo } from '../io';

export interface RenderOptions {
  readonly registry: string;
  readonly directory?: string;
  readonly configSource?: string[];
  readonly cluster?: string[];
  readonly values?: string;
  readonly out?: string;
  readonly stackReleases?: string;
  readonly output: 'text' | 'json';
}

const EXAMPLES = `
Examples:
  # Render every cluster of the example registry, offline, and print a summary
  $ clm render --registry examples/clusters.yaml --directory examples/config

  # One cluster, with deploy-time values (subnets, stack outputs...), as JSON for jq
  $ clm render --registry examples/clusters.yaml --directory examples/config \\
      --cluster aws:123456789012:eu-central-1:kube-test --values examples/values.yaml --output json

  # Write the rendered files for review (stacks, manifests, deletions, config items)
  $ clm render --registry examples/clusters.yaml --directory examples/config --out /tmp/rendered

  # Several config sources, later ones adding manifests and overriding config defaults
  $ clm render --registry clusters.yaml --config-source main:dir:./config --config-source extra:dir:./extra

Without --values, offline values are made up: zones a/b/c of the region with one subnet-<az> each,
hosted_zone from the API server URL, vpc_ipv4_cidr 10.0.0.0/16 and no stack outputs. Templates that read
Values.ClusterStackOutputs then fail with a hint to pass them with --values.
What AWS would be asked comes from the values file's lookups: section (AMIs for amiID, instance types
beyond the built-in table for Values.InstanceInfo and instanceType*Quantity), e.g.
  lookups:
    amis: [{name: my-node-image-v1, owner: "123456789012", id: ami-0123456789abcdef0}]
    instance_types: {m7i.large: {vcpu: 2, memory_mib: 8192, architecture: amd64}}
Exit codes: 0 all clusters rendered, 1 at least one cluster had errors, 2 usage error.`;

/** `clm render`: renders every selected cluster without touching any cloud. */
export function registerRenderCommand(program: Command, io: CliIo): void {
  program
    .command('render')
    .description(
      'Render the stacks, manifests and deletions of clusters from their config, offline (nothing is deployed).',
    )
    .requiredOption('-f, --registry <uri>', 'cluster registry: clusters.yaml path, file://, http(s):// or dynamodb://')
    .option('--directory <path>', 'a single local config directory (the source "main"); not with --config-source')
    .option(
      '--config-source <name:type:location>',
      'config source NAME:dir:PATH or NAME:git:URL, repeatable, in order',
      collect,
    )
    .option('--cluster <id>', 'render only this cluster id, repeatable (default: all clusters)', collect)
    .option(
      '--values <file>',
      'YAML with deploy-time values: a map for all clusters, or defaults: and clusters: {<id>: ...}',
    )
    .option('--out <dir>', 'write the rendered files to DIR/<cluster id with ":" as "_">/...')
    .option(
      '--stack-releases <dir|s3://bucket/prefix>',
      'where released cluster stacks (cluster_stack_version: vN@sha256:…) are read',
    )
    .addOption(new Option('-o, --output <format>', 'what to print').choices(['text', 'json']).default('text'))
    .addHelpText('after', EXAMPLES)
    .action(async (options: RenderOptions) => {
      // The implementation (registry, config sources, template engine…) loads only when the command runs.
      const { runRender } = await import('./render-run');
      const code = await runRender(options, io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
