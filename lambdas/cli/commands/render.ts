import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { createConfigSources } from '../../adapters/config-source/create-config-sources';
import { createRegistry } from '../../adapters/registry/create-registry';
import { HandlebarsTemplateEngine } from '../../adapters/templating/handlebars-template-engine';
import { StaticValuesProvider } from '../../adapters/values/static-values-provider';
import { KMS_PREFIX } from '../../core/config/effective-config-items';
import type { Cluster } from '../../core/model/cluster';
import { parseConfigSourceFlags } from '../../core/model/config-source-spec';
import { renderCluster } from '../../core/render/render-cluster';
import type { ClusterRender } from '../../core/render/render-cluster';
import type { RenderIssue } from '../../core/render/render-issue';
import { renderJsonDocument, renderSummary } from '../../core/render/render-report';
import { renderTree } from '../../core/render/render-tree';
import { selectClusters } from '../../core/selection/select-clusters';
import { withStackTree } from '../../core/cluster-stacks/resolve-stack';
import type { ArtifactStore } from '../../ports/artifact-store';
import { loadClusterStack } from '../../tasks/cluster-stacks/stack-releases';
import { peersOf } from '../../core/eks/oidc-trust';
import { openReleaseStore } from '../release-store';
import { resolveClusterConfigVersion } from '../../core/version/resolve-config-version';
import { targetVersion } from '../../core/version/cluster-version';
import type { ConfigSnapshot, ConfigSource } from '../../ports/config-source';
import type { SecretDecrypter } from '../../ports/secrets';
import { ClmError } from '../../shared/errors';
import { CliExit, EXIT } from '../io';
import type { ExitCode } from '../io';
import type { CliIo } from '../io';
import { usage, usageAsync } from '../usage';

interface RenderOptions {
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
      const code = await runRender(options, io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The whole command; returns the exit code. Usage problems throw UsageError. */
export async function runRender(options: RenderOptions, io: CliIo): Promise<ExitCode> {
  const specs = usage(() =>
    parseConfigSourceFlags({ configSources: options.configSource, directory: options.directory }),
  );
  const logger = { warn: (message: string) => io.stderr(`warning: ${message}\n`), debug: () => undefined };
  const registry = usage(() => createRegistry(options.registry, { cwd: io.cwd, logger }));
  const clusters = await usageAsync(() => registry.listClusters());
  const { selected } = usage(() => selectClusters(clusters, { clusterIds: options.cluster }));
  const sources = usage(() => createConfigSources(specs, { cwd: io.cwd }));
  const values = options.values
    ? await usageAsync(() => StaticValuesProvider.fromFile(resolve(io.cwd, options.values!)))
    : new StaticValuesProvider();
  for (const id of values.unknownClusterIds(clusters.map((c) => c.id)))
    io.stderr(`warning: ${options.values}: cluster ${id} is not in the registry\n`);

  // amiID and instanceType*Quantity are answered offline: the values file's lookups, then the pinned table.
  const engine = new HandlebarsTemplateEngine({ lookups: values.lookups });
  const decrypter = offlineDecrypter();
  const checkouts = new Map<string, Promise<ConfigSnapshot>>();
  const versionCache = new Map<string, Promise<string>>();
  const releases = options.stackReleases
    ? (await openReleaseStore(options.stackReleases, { cwd: io.cwd, flag: '--stack-releases' })).store
    : undefined;
  const renders: ClusterRender[] = [];
  for (const cluster of selected) {
    const withPeers = { ...cluster, accountClusters: peersOf(cluster, clusters) };
    renders.push(await renderOne(withPeers, { sources, engine, decrypter, values, checkouts, versionCache, releases }));
  }
  for (const render of renders)
    for (const warning of render.warnings ?? []) io.stderr(`warning: ${render.id}: ${warning}\n`);
  if (selected.some((c) => Object.values(c.configItems).some((v) => v.startsWith(KMS_PREFIX)))) {
    io.stderr('note: aws:kms: config items are not decrypted offline; templates see a placeholder\n');
  }

  if (options.out) {
    const outDir = resolve(io.cwd, options.out);
    for (const render of renders) await writeTree(outDir, renderTree(render));
  }
  if (options.output === 'json') {
    io.stdout(`${JSON.stringify(renderJsonDocument(renders), null, 2)}\n`);
  } else {
    for (const render of renders) io.stdout(`${renderSummary(render)}\n`);
    const failed = renders.filter((r) => r.errors.length).length;
    io.stdout(
      `${renders.length} cluster${renders.length === 1 ? '' : 's'} rendered, ${failed} with errors${options.out ? `; files written to ${options.out}` : ''}\n`,
    );
  }
  return renders.some((r) => r.errors.length) ? EXIT.FAILED : EXIT.OK;
}

interface RenderDeps {
  readonly sources: readonly ConfigSource[];
  readonly engine: HandlebarsTemplateEngine;
  readonly decrypter: SecretDecrypter;
  readonly values: StaticValuesProvider;
  readonly checkouts: Map<string, Promise<ConfigSnapshot>>;
  readonly versionCache: Map<string, Promise<string>>;
  /** `--stack-releases`: the release store of clusters pinning a released stack. */
  readonly releases: ArtifactStore | undefined;
}

/** One cluster: its config version, checkouts (shared between clusters), values, render. Errors stay with the cluster. */
async function renderOne(cluster: Cluster, deps: RenderDeps): Promise<ClusterRender> {
  const failed = (issue: RenderIssue): ClusterRender => ({
    id: cluster.id,
    version: '',
    configItems: cluster.configItems,
    nodePools: cluster.nodePools.map((p) => ({ name: p.name, configItems: p.configItems })),
    stacks: [],
    manifests: [],
    deletions: { preApply: [], postApply: [] },
    cfDeletions: { preApply: [], postApply: [] },
    poolDetails: [],
    errors: [issue],
  });
  let snapshots: ConfigSnapshot[];
  let version: string;
  try {
    const resolved = await resolveClusterConfigVersion(cluster, deps.sources, { cache: deps.versionCache });
    version = targetVersion(resolved.id, cluster);
    const raw = await Promise.all(resolved.sources.map((s, i) => checkout(deps, deps.sources[i], s.version)));
    // A cluster pinning a cluster stack renders from the stack's layers (core/cluster-stacks).
    snapshots = withStackTree(raw, await loadClusterStack(cluster, raw, deps.releases));
  } catch (error) {
    return failed({
      error: error instanceof ClmError ? error.name : 'ConfigError',
      message: error instanceof Error ? error.message : String(error),
    });
  }
  const render = await renderCluster({
    cluster,
    snapshots,
    values: (effective) => deps.values.clusterValues(effective),
    engine: deps.engine,
    decrypter: deps.decrypter,
    version,
  });
  const outputsKnown = Object.keys((render.values?.ClusterStackOutputs as object | undefined) ?? {}).length > 0;
  const errors = render.errors.map(withInstanceInfoHint);
  return { ...render, errors: outputsKnown ? errors : errors.map(withOutputsHint) };
}

function checkout(deps: RenderDeps, source: ConfigSource, version: string): Promise<ConfigSnapshot> {
  const key = `${source.name}\u0000${version}`;
  let snapshot = deps.checkouts.get(key);
  if (!snapshot) {
    snapshot = source.checkout(version);
    deps.checkouts.set(key, snapshot);
  }
  return snapshot;
}

/** Offline there are no stack outputs unless --values gives them: say so where a template needed one. */
function withOutputsHint(issue: RenderIssue): RenderIssue {
  if (!issue.message.includes('ClusterStackOutputs')) return issue;
  return {
    ...issue,
    message: `${issue.message} (the main stack's outputs are unknown offline: pass them with --values FILE under ClusterStackOutputs)`,
  };
}

/** A pool whose instance types are not in the offline table has no Values.InstanceInfo: say how to add them. */
function withInstanceInfoHint(issue: RenderIssue): RenderIssue {
  if (!issue.message.includes('"Values.InstanceInfo')) return issue;
  return {
    ...issue,
    message: `${issue.message} (the facts of this pool's instance types are unknown offline: add them to --values under lookups.instance_types)`,
  };
}

/** `aws:kms:` items cannot be decrypted without AWS; show where a secret would go. */
function offlineDecrypter(): SecretDecrypter {
  return { decrypt: async (ciphertext) => `<aws:kms secret ${ciphertext.slice(0, 8)}…>` };
}

async function writeTree(outDir: string, files: Map<string, string>): Promise<void> {
  for (const [path, content] of files) {
    const target = resolve(outDir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}
