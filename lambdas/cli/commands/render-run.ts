// `clm render`'s implementation, loaded by its action (render.ts declares the command).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
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
import { EXIT } from '../io';
import type { ExitCode } from '../io';
import type { CliIo } from '../io';
import { usage, usageAsync } from '../usage';

import type { RenderOptions } from './render';

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
