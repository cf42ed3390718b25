/**
 * `npm run bench -- vs-clm`: our whole `clm` processes against Zalando's CLM (Go, built from its source by
 * clm-go-build.ts with our render harness) and against Node's own start, measured side by side on this machine
 * (process-cpu.ts: CPU of whole processes, A B A B, median of the per-pair ratios):
 *
 * - `clm render` / CLM, the synthetic 300-manifest cluster: examples/clm-config (Go templates) with 30 components ×
 *   10 Deployment files (render-example.ts); CLM renders it as it is, `clm render` after `clm migrate`;
 * - `clm render` / CLM, kubernetes-on-aws's e2e cluster, when KOA_DIR names a checkout of it (migrated and set up as
 *   docs/koa-check.sh does; CLM renders the checkout as it is);
 * - `clm --help` / `node -e 0`: what our start-up adds to Node's (a Go binary starts in a few ms; Node's own start
 *   is the floor of any Node CLI).
 *
 * Both renders write their files (`clm render --out DIR` and the harness's identical tree), and the first run of
 * each is compared file by file (render-trees.ts): a difference is reported and no ratio is printed for that config.
 * When CLM cannot be built (no Go, no network, no source), the bench says why and prints no render ratio.
 *
 * Knobs: KOA_DIR (a kubernetes-on-aws checkout), CLM_VS_PAIRS (pairs per figure, default 11), and clm-go-build.ts's
 * CLM_GO_SOURCE, CLM_GO_REF, CLM_CACHE_DIR.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../bin/build-cli.mjs';
import { cliBundle } from '../bin/cli-bundle.mjs';
import { StaticValuesProvider, parseValuesFile } from '../lambdas/adapters/values/static-values-provider';
import { nodeFilesBucket } from '../lambdas/core/render/files-bundle';
import { INSTANCE_TYPE_FACTS } from '../lambdas/core/render/instance-info';
import { parseClustersYaml } from '../lambdas/core/model/parse-clusters';
import type { InstanceTypeInfo } from '../lambdas/ports/template-engine';
import type { BenchResult } from './bench-result';
import { withBudget } from './bench-result';
import { buildClmHarness } from './clm-go-build';
import { describePairs, interleavedPairs, processCpu } from './process-cpu';
import type { ProcessCommand } from './process-cpu';
import { CLM_DIALECT_EXAMPLE, clmDialectExampleFiles, writeConfig } from './render-example';
import { compareRenderTrees } from './render-trees';

export const name = 'vs-clm';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLM = join(ROOT, 'bin', 'clm.mjs');
const PAIRS = Number(process.env.CLM_VS_PAIRS ?? 11);
const KOA_CLUSTER = 'aws:123456789012:eu-central-1:e2e-test';
/** The targets of issue 31. */
const RENDER_BUDGET = 1.0;
const HELP_BUDGET = 1.5;
const NODE_ENV = { ...process.env, NODE_OPTIONS: '' };

/** One config rendered by both: ours from the migrated copy, CLM's from the Go templates. */
interface SideBySide {
  readonly label: string;
  readonly registry: string;
  readonly cluster: string;
  readonly values: string;
  /** Go templates, for CLM. */
  readonly clmConfig: string;
  /** The same after `clm migrate`, for us. */
  readonly ourConfig: string;
}

export async function run(): Promise<BenchResult[]> {
  if (!Number.isInteger(PAIRS) || PAIRS < 9) throw new Error(`CLM_VS_PAIRS must be an integer ≥ 9, got ${PAIRS}`);
  if (!('file' in cliBundle(ROOT))) await buildCli(ROOT);
  const scratch = mkdtempSync(join(tmpdir(), 'clm-vs-clm-'));
  try {
    const results = [startUp()];
    const clm = buildClmHarness((line) => process.stderr.write(`  ${line}\n`));
    const configs = [syntheticConfig(scratch), koaConfig(scratch)];
    for (const config of configs) {
      if ('skipped' in config) {
        results.push({ name: config.name, value: NaN, unit: '×', note: config.skipped });
        continue;
      }
      const figure = `clm render / Zalando CLM, ${config.label}`;
      if ('reason' in clm) {
        results.push({ name: figure, value: NaN, unit: '×', note: `not measured: CLM not built: ${clm.reason}` });
        continue;
      }
      results.push(await renderSideBySide(config, clm.binary, clm.commit, scratch));
    }
    return results;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `clm --help` against `node -e 0`. */
function startUp(): BenchResult {
  const node: ProcessCommand = { argv: [process.execPath, '-e', '0'], cwd: ROOT, env: NODE_ENV };
  const help: ProcessCommand = { argv: [process.execPath, CLM, '--help'], cwd: ROOT, env: NODE_ENV };
  const pairs = interleavedPairs(PAIRS, help, node);
  return withBudget({
    name: 'clm --help / node -e 0, whole process CPU',
    value: pairs.medianRatio,
    unit: '×',
    budget: HELP_BUDGET,
    note: `${describePairs(pairs)}; clm --help ${ms(pairs.medianA)}, node -e 0 ${ms(pairs.medianB)} (medians); node ${process.version}`,
  });
}

function syntheticConfig(scratch: string): SideBySide {
  const clmConfig = join(scratch, 'synthetic-go');
  writeConfig(clmConfig, clmDialectExampleFiles());
  const ourConfig = join(scratch, 'synthetic-migrated');
  migrate(clmConfig, ourConfig);
  return {
    label: 'synthetic 300 manifests',
    registry: CLM_DIALECT_EXAMPLE.registry,
    cluster: CLM_DIALECT_EXAMPLE.cluster,
    values: CLM_DIALECT_EXAMPLE.values,
    clmConfig,
    ourConfig,
  };
}

/** kubernetes-on-aws set up by docs/koa-check.sh (registry with throw-away secrets, values, migrated copy). */
function koaConfig(scratch: string): SideBySide | { skipped: string; name: string } {
  const name = 'clm render / Zalando CLM, kubernetes-on-aws e2e cluster';
  const koa = process.env.KOA_DIR;
  if (!koa) return { name, skipped: 'not measured: set KOA_DIR to a kubernetes-on-aws checkout' };
  if (!existsSync(join(koa, 'cluster'))) return { name, skipped: `not measured: ${koa} has no cluster/ (KOA_DIR)` };
  const work = join(scratch, 'koa');
  const check = spawnSync('bash', [join(ROOT, 'docs', 'koa-check.sh'), work], {
    cwd: ROOT,
    env: { ...NODE_ENV, KOA_DIR: koa },
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`docs/koa-check.sh failed:\n${check.stdout}${check.stderr}`);
  // koa-check.sh has our render manage the etcd stack too (as the repository's e2e runs CLM with --manage-etcd-stack);
  // the harness renders what CLM renders without that flag, so the registry measured leaves the item out.
  const registry = join(work, 'clusters.yaml');
  writeFileSync(registry, readFileSync(registry, 'utf8').replace(/^ {4}manage_etcd_stack: "true"\n/m, ''));
  const commit = spawnSync('git', ['-C', koa, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' });
  return {
    label: `kubernetes-on-aws e2e cluster${commit.status === 0 ? ` (${commit.stdout.trim()})` : ''}`,
    registry: join(work, 'clusters.yaml'),
    cluster: KOA_CLUSTER,
    values: join(work, 'values.yaml'),
    clmConfig: koa,
    ourConfig: join(work, 'migrated'),
  };
}

function migrate(from: string, to: string): void {
  const result = spawnSync(process.execPath, [CLM, 'migrate', '--from', from, '--to', to], {
    cwd: ROOT,
    env: NODE_ENV,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`clm migrate --from ${from} failed:\n${result.stdout}${result.stderr}`);
}

async function renderSideBySide(
  config: SideBySide,
  harness: string,
  commit: string,
  scratch: string,
): Promise<BenchResult> {
  const figure = `clm render / Zalando CLM, ${config.label}`;
  const dir = join(scratch, config.label.replace(/[^a-z0-9]+/gi, '-'));
  mkdirSync(dir, { recursive: true });
  const awsFile = join(dir, 'aws.json');
  await writeAwsAnswers(config, awsFile);
  const oursOut = join(dir, 'ours');
  const theirsOut = join(dir, 'clm');
  const ours = (out?: string): ProcessCommand => ({
    argv: [
      process.execPath,
      CLM,
      'render',
      '--registry',
      config.registry,
      '--directory',
      config.ourConfig,
      '--values',
      config.values,
      '--cluster',
      config.cluster,
      ...(out ? ['--out', out] : []),
    ],
    cwd: ROOT,
    env: NODE_ENV,
  });
  // "-": render everything and write nothing, as `clm render` without --out (which prints a summary).
  const theirs = (out = '-'): ProcessCommand => ({
    argv: [harness, config.registry, config.clmConfig, config.cluster, awsFile, out],
    cwd: ROOT,
  });
  // First both outputs, written and compared file by file; only then the measured pairs, as `clm render` is run.
  processCpu(ours(oursOut));
  processCpu(theirs(theirsOut));
  const compared = compareRenderTrees(oursOut, theirsOut);
  if (compared.differences.length)
    return {
      name: figure,
      value: NaN,
      unit: '×',
      note: `no ratio: the outputs differ (${compared.differences.join('; ')})`,
    };
  const pairs = interleavedPairs(PAIRS, ours(), theirs());
  return withBudget({
    name: figure,
    value: pairs.medianRatio,
    unit: '×',
    budget: RENDER_BUDGET,
    note:
      `${describePairs(pairs)}; clm render ${ms(pairs.medianA)}, CLM ${ms(pairs.medianB)} (medians; CLM ${commit.slice(0, 7)}); ` +
      `outputs equal: ${compared.files} files, ${compared.identical} byte-identical, the others equal as YAML`,
  });
}

/**
 * What the harness answers for AWS, from the values `clm render` uses for the cluster (the values file over the
 * offline values: zones, subnets, hosted zone, stack outputs; AMIs and instance types from the lookups).
 */
async function writeAwsAnswers(config: SideBySide, file: string): Promise<void> {
  const { clusters } = parseClustersYaml(readFileSync(config.registry, 'utf8'), config.registry);
  const cluster = clusters.find((c) => c.id === config.cluster);
  if (!cluster) throw new Error(`cluster ${config.cluster} is not in ${config.registry}`);
  const valuesFile = parseValuesFile(readFileSync(config.values, 'utf8'), config.values);
  const values = await new StaticValuesProvider(valuesFile).clusterValues(cluster);
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : '');
  const byZone = (key: string, az: string) => (values[key] as Record<string, string> | undefined)?.[az] ?? '';
  const facts = (values[INSTANCE_TYPE_FACTS] ?? {}) as Record<string, InstanceTypeInfo>;
  const answers = {
    bucket: nodeFilesBucket(cluster).bucket,
    vpcId: text('vpc_id'),
    vpcIpv4Cidr: text('vpc_ipv4_cidr'),
    vpcIpv6Cidrs: [],
    hostedZone: text('hosted_zone'),
    loadBalancerCertificate: text('load_balancer_certificate'),
    zones: Object.fromEntries(
      (values.availability_zones as string[]).map((az) => [
        az,
        {
          node: byZone('subnets', az),
          lb: byZone('lb_subnets', az),
          internal: byZone('internal_node_subnets', az),
          pod: byZone('pod_subnets', az),
        },
      ]),
    ),
    stackOutputs: values.ClusterStackOutputs ?? {},
    amis: valuesFile.lookups.amis,
    instanceTypes: Object.values(facts).map((f) => ({
      type: f.instanceType,
      vcpu: f.vcpu,
      memoryMiB: f.memoryMiB,
      instanceStorageDevices: f.instanceStorageDevices,
      instanceStorageDeviceSizeGB: f.instanceStorageDeviceSizeGB,
      architecture: f.architecture,
    })),
  };
  writeFileSync(file, JSON.stringify(answers));
}

function ms(seconds: number): string {
  return `${Math.round(seconds * 1000)} ms`;
}
