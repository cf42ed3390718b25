import { ConfigError } from '../../shared/errors';
import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateEngine, TemplateFile } from '../../ports/template-engine';
import { isKarpenterPool, isMasterPool } from '../model/cluster';
import type { Cluster, NodePool } from '../model/cluster';
import { nodePoolStackName, nodePoolStackTags } from '../cloudformation/stack-names';
import { nodePoolTemplates } from './config-layout';
import { filesKey, nodeFilesBucket, parseFilesYaml, sha512Hex } from './files-bundle';
import type { FilesBundle, FilesRole } from './files-bundle';
import { clusterStackOutputs, encodeUserData, restrictToPoolZones, supportsT2Unlimited } from './pool-values';
import type { Values } from './pool-values';
import { namedStack, renderCfnTemplate } from './render-stack';
import type { RenderedStack } from './render-stack';
import { renderContext } from './render-context';
import { poolInstanceInfo } from './instance-info';

export interface RenderedNodePool {
  readonly name: string;
  readonly profile: string;
  readonly master: boolean;
  readonly stack: RenderedStack & { readonly pool: string };
  readonly files: FilesBundle;
  /** The rendered userdata.yaml (the stack carries it gzipped and base64 encoded as Values.UserData). */
  readonly userData: string;
}

export interface NodePoolInput {
  /** With effective config items; `pool` is one of its pools (with inherited items). */
  readonly cluster: Cluster;
  readonly pool: NodePool;
  readonly snapshots: readonly ConfigSnapshot[];
  /** Deploy-time values including ClusterStackOutputs. Each pool works on its own shallow copy. */
  readonly values: Values;
  readonly engine: TemplateEngine;
}

/**
 * One ASG-backed node pool (CLM §6.4), from `cluster/node-pools/<profile>/` of the first source:
 * 0. `Values.InstanceInfo` (CLM's synthetic instance info of the pool's types, when the values carry their facts)
 *    and `supports_t2_unlimited`;
 *    and the pool's `availability_zones` item restricting `availability_zones`/`subnets`;
 * 1. `files.yaml` → the files bundle and its content address → `Values.S3GeneratedFilesPath`;
 * 2. `userdata.yaml` → gzip + base64 → `Values.UserData`;
 * 3. `stack.yaml` → stack `nodepool-<pool>-<id>` with CLM's node-pool tags.
 * Karpenter pools (`worker-karpenter`) have no stack: render-karpenter-pool.ts.
 */
export async function renderNodePool(input: NodePoolInput): Promise<RenderedNodePool> {
  const { cluster, pool, engine } = input;
  if (isKarpenterPool(pool)) {
    throw new ConfigError(`node pool "${pool.name}" is a Karpenter pool: it has no stack (renderKarpenterPool)`, {
      location: { clusterId: cluster.id, field: `node_pools.${pool.name}.profile` },
    });
  }
  const templates = nodePoolTemplates(input.snapshots, pool);
  const master = isMasterPool(pool);
  const values: Record<string, unknown> = { ...input.values };
  // As CLM: both are set before any of the pool's templates is rendered.
  values.supports_t2_unlimited = supportsT2Unlimited(pool);
  const instanceInfo = poolInstanceInfo(pool.instanceTypes, values);
  if (instanceInfo) values.InstanceInfo = instanceInfo;

  // As CLM: the pool's availability_zones item restricts the zones and subnets all three templates see.
  Object.assign(values, restrictToPoolZones(values, pool));

  const files = await renderFilesBundle(input, templates.files, values, master ? 'master' : 'worker');

  const userData = await engine.render({ template: templates.userdata, context: renderContext(cluster, values, pool) });
  values.UserData = encodeUserData(userData);

  const rendered = await renderCfnTemplate(engine, {
    template: templates.stack,
    context: renderContext(cluster, values, pool),
  });
  const stack = namedStack(rendered, templates.stack.path, {
    name: nodePoolStackName(cluster, pool.name),
    kind: 'node-pool',
    tags: nodePoolStackTags(cluster, pool),
    pool: pool.name,
  }) as RenderedStack & { pool: string };
  return { name: pool.name, profile: pool.profile, master, stack, files, userData };
}

/**
 * A `files.yaml` rendered into its files bundle (CLM §6.4; the etcd stack's too, without a pool): content-addressed in
 * the cluster's files bucket, the KMS key from the main stack's outputs (`MasterFilesEncryptionKey` for master pools,
 * `WorkerFilesEncryptionKey` otherwise) or given (etcd); sets `Values.S3GeneratedFilesPath`, which userdata.yaml reads.
 */
export async function renderFilesBundle(
  input: Pick<NodePoolInput, 'cluster' | 'engine'> & { readonly pool?: NodePool },
  template: TemplateFile,
  values: Record<string, unknown>,
  role: FilesRole,
  kms: { readonly source: string; readonly id?: string } = poolKms(role, values),
): Promise<FilesBundle> {
  const { cluster, pool, engine } = input;
  const filesText = await engine.render({ template, context: renderContext(cluster, values, pool) });
  const sha512 = sha512Hex(filesText);
  const { bucket } = nodeFilesBucket(cluster);
  const key = filesKey(cluster.localId, role, sha512);
  const files: FilesBundle = {
    role,
    sha512,
    bucket,
    key,
    s3Path: `s3://${bucket}/${key}`,
    kmsKeyOutput: kms.source,
    ...(kms.id ? { kmsKeyId: kms.id } : {}),
    files: parseFilesYaml(filesText, template.path),
  };
  values.S3GeneratedFilesPath = files.s3Path;
  return files;
}

/** A pool's key: the main stack's `MasterFilesEncryptionKey` or `WorkerFilesEncryptionKey` output. */
function poolKms(role: FilesRole, values: Values): { readonly source: string; readonly id?: string } {
  const source = role === 'master' ? 'MasterFilesEncryptionKey' : 'WorkerFilesEncryptionKey';
  const id = clusterStackOutputs(values)[source];
  return { source, ...(id ? { id } : {}) };
}
