import * as z from '../shared/zod';
import type { CfDeletions, Deletions } from '../core/deletions/deletion';
import { PROPAGATION_POLICIES } from '../core/deletions/deletion';
import type { Cluster } from '../core/model/cluster';
import { LIFECYCLE_STATUSES, PROVIDERS } from '../core/model/cluster';
import type { RenderedManifestFile } from '../core/render/render-manifests';
import type { RenderedStack } from '../core/render/render-stack';
import type { FilesBundle } from '../core/render/files-bundle';
import type { KubeObject } from '../ports/kube-cluster';

/**
 * What a run stores in the artefact store (S3) between its tasks, checked with zod whenever a task reads it back:
 * an artefact written by another version of the code, or damaged, is a clear error, not a cast.
 */

const Items = z.record(z.string(), z.string());

const NodePoolShape = z.object({
  name: z.string(),
  profile: z.string(),
  instanceTypes: z.array(z.string()),
  discountStrategy: z.string(),
  minSize: z.number(),
  maxSize: z.number(),
  configItems: Items,
});

const ProblemShape = z.object({
  type: z.string(),
  title: z.string(),
  status: z.optional(z.number()),
  detail: z.optional(z.string()),
  instance: z.optional(z.string()),
});

export const ClusterShape: z.ZodMiniType<Cluster> = z.object({
  id: z.string(),
  alias: z.string(),
  localId: z.string(),
  apiServerUrl: z.string(),
  channel: z.string(),
  configItems: Items,
  criticalityLevel: z.number(),
  environment: z.string(),
  infrastructureAccount: z.string(),
  lifecycleStatus: z.enum(LIFECYCLE_STATUSES),
  nodePools: z.array(NodePoolShape),
  provider: z.enum(PROVIDERS),
  region: z.string(),
  status: z.object({
    currentVersion: z.string(),
    lastVersion: z.string(),
    nextVersion: z.string(),
    problems: z.array(ProblemShape),
  }),
  owner: z.optional(z.string()),
  accountName: z.optional(z.string()),
  createdAt: z.optional(z.string()),
  accountClusters: z.optional(
    z.array(
      z.object({
        id: z.string(),
        localId: z.string(),
        infrastructureAccount: z.string(),
        provider: z.enum(PROVIDERS),
        apiServerUrl: z.string(),
        lifecycleStatus: z.enum(LIFECYCLE_STATUSES),
        oidcIssuerUrl: z.string(),
      }),
    ),
  ),
});

const RenderedStackShape: z.ZodMiniType<RenderedStack> = z.object({
  name: z.string(),
  kind: z.enum(['cluster', 'node-pool', 'cf-manifest', 'etcd']),
  template: z.string(),
  tags: z.record(z.string(), z.string()),
  pool: z.optional(z.string()),
  stackPolicy: z.optional(z.string()),
});

const FilesBundleShape: z.ZodMiniType<FilesBundle> = z.object({
  role: z.enum(['master', 'worker', 'etcd']),
  sha512: z.string(),
  bucket: z.string(),
  key: z.string(),
  s3Path: z.string(),
  kmsKeyOutput: z.string(),
  kmsKeyId: z.optional(z.string()),
  files: z.array(z.object({ path: z.string(), data: z.string(), encrypted: z.boolean(), permissions: z.number() })),
});

const KubeObjectShape: z.ZodMiniType<KubeObject> = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z.looseObject({ name: z.string(), namespace: z.optional(z.string()) }),
});

const ManifestFileShape: z.ZodMiniType<RenderedManifestFile> = z.object({
  source: z.string(),
  component: z.string(),
  file: z.string(),
  objects: z.array(KubeObjectShape),
});

const DeletionFields = {
  kind: z.string(),
  namespace: z.optional(z.string()),
  propagationPolicy: z.optional(z.enum(PROPAGATION_POLICIES)),
  gracePeriodSeconds: z.optional(z.number()),
};
const DeletionShape = z.union([
  z.object({ ...DeletionFields, name: z.string() }),
  z.object({ ...DeletionFields, selector: z.string(), hasOwner: z.optional(z.boolean()) }),
  z.object({ ...DeletionFields, labels: z.record(z.string(), z.string()), hasOwner: z.optional(z.boolean()) }),
]);
const DeletionsShape: z.ZodMiniType<Deletions> = z.object({
  preApply: z.array(DeletionShape),
  postApply: z.array(DeletionShape),
});
const CfDeletionsShape: z.ZodMiniType<CfDeletions> = z.object({
  preApply: z.array(z.object({ stackName: z.string() })),
  postApply: z.array(z.object({ stackName: z.string() })),
});

const LayerRecord = z.object({ clusterClass: z.string(), clusterAddon: z.string(), nodeImage: z.string() });
const StackStateShape = z.object({
  name: z.string(),
  version: z.string(),
  kubernetes: z.string(),
  components: z.object({ clusterAddon: z.string(), nodeImage: z.string() }),
  digests: LayerRecord,
  rest: z.string(),
});
const StackStepsShape = z.object({
  mainStack: z.boolean(),
  cfManifestStacks: z.boolean(),
  poolStacks: z.boolean(),
  rollPools: z.boolean(),
  manifests: z.boolean(),
});

/** What Prepare pins for the run: the cluster as the registry had it and the config versions per source. */
export const ClusterArtifact = z.object({
  cluster: ClusterShape,
  configVersion: z.string(),
  sourceVersions: z.record(z.string(), z.string()),
  /** For a cluster pinning a cluster stack: the stack this run moves to, and which layers (so steps) changed. */
  stack: z.optional(StackStateShape),
  layerPlan: z.optional(
    z.object({
      from: z.optional(z.string()),
      to: z.string(),
      changed: z.readonly(z.array(z.enum(['clusterClass', 'clusterAddon', 'nodeImage']))),
      allBecause: z.optional(z.string()),
      steps: StackStepsShape,
    }),
  ),
});
export type ClusterArtifact = z.infer<typeof ClusterArtifact>;

/** What RenderConfig produced: config items, the main stack, validated deletions. */
export const MainArtifact = z.object({
  /** Registry items with the config defaults merged in; `aws:kms:` values are kept encrypted (this is stored in S3). */
  configItems: Items,
  mainStack: RenderedStackShape,
  /** Key of the stored config snapshot files (so later steps need no git fetch). */
  configFilesKey: z.string(),
  /** The deploy-time values (subnets, certificate, keys…) the run renders with; absent in older artefacts. */
  values: z.optional(z.record(z.string(), z.unknown())),
  /** The etcd stack and its files bundle (`manage_etcd_stack: "true"`), deployed before the main stack. */
  etcd: z.optional(z.object({ stack: RenderedStackShape, files: FilesBundleShape })),
});
export type MainArtifact = z.infer<typeof MainArtifact>;

/** What RenderClusterResources produced, with the main stack's outputs. */
export const ResourcesArtifact = z.object({
  poolStacks: z.array(z.intersection(RenderedStackShape, z.object({ pool: z.string(), master: z.boolean() }))),
  cfManifestStacks: z.array(RenderedStackShape),
  manifests: z.array(ManifestFileShape),
  deletions: DeletionsShape,
  cfDeletions: CfDeletionsShape,
  /** The pools' files bundles uploaded into the cluster's account (`s3://<bucket>/<key>`). */
  filesKeys: z.array(z.string()),
  /** Karpenter pools: the objects of their provisioners.yaml (applied by ApplyKarpenterPools); absent in older runs. */
  karpenterPools: z.optional(z.array(z.object({ name: z.string(), provisioners: z.array(KubeObjectShape) }))),
});
export type ResourcesArtifact = z.infer<typeof ResourcesArtifact>;

/** The config snapshot of every source, kept with the run so later steps render without fetching git again. */
export const ConfigFilesArtifact = z.array(
  z.object({
    sourceName: z.string(),
    version: z.string(),
    files: z.array(z.tuple([z.string(), z.string()])),
  }),
);
