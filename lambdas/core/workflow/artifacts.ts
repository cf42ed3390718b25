import { createHash } from 'node:crypto';
import type { Cluster } from '../model/cluster';
import type { KubeObject } from '../../ports/kube-cluster';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { CfDeletions, Deletions } from '../deletions/deletion';
import { NotFoundError } from '../../shared/errors';

/** A rendered CloudFormation stack, ready for the StackDeployer. */
export interface RenderedStack {
  readonly name: string;
  readonly kind: 'cluster' | 'node-pool' | 'cf-manifest';
  readonly template: string;
  readonly tags: Readonly<Record<string, string>>;
  /** Node-pool stacks: the pool they hold. */
  readonly pool?: string;
}

export interface RenderedManifestFile {
  readonly source: string;
  readonly component: string;
  readonly file: string;
  readonly objects: readonly KubeObject[];
}

/** What Prepare pins for the run: the cluster as the registry had it and the config versions per source. */
export interface ClusterArtifact {
  readonly cluster: Cluster;
  readonly configVersion: string;
  readonly sourceVersions: Readonly<Record<string, string>>;
}

/** What RenderConfig produced: config items, the main stack, validated deletions. */
export interface MainArtifact {
  /** Registry items with the config defaults merged in; `aws:kms:` values are kept encrypted (this is stored in S3). */
  readonly configItems: Readonly<Record<string, string>>;
  readonly mainStack: RenderedStack;
  /** Key of the stored config snapshot files (so later steps need no git fetch). */
  readonly configFilesKey: string;
}

/** What RenderClusterResources produced, with the main stack's outputs. */
export interface ResourcesArtifact {
  readonly poolStacks: readonly (RenderedStack & { readonly pool: string; readonly master: boolean })[];
  readonly cfManifestStacks: readonly RenderedStack[];
  readonly manifests: readonly RenderedManifestFile[];
  readonly deletions: Deletions;
  readonly cfDeletions: CfDeletions;
  /** Files bundles uploaded for the pools (ArtifactStore keys). */
  readonly filesKeys: readonly string[];
}

/** Artefact keys are per cluster and target version; the version is hashed to keep keys short and safe. */
export function runArtifactKey(clusterId: string, targetVersion: string, name: string): string {
  const version = createHash('sha256').update(targetVersion).digest('hex').slice(0, 16);
  return `runs/${clusterId.replace(/[^A-Za-z0-9._-]/g, '_')}/${version}/${name}.json`;
}

export async function putJson(store: ArtifactStore, key: string, value: unknown): Promise<string> {
  await store.put(key, JSON.stringify(value));
  return key;
}

export async function getJson<T>(store: ArtifactStore, key: string): Promise<T> {
  const body = await store.get(key);
  if (body === undefined) throw new NotFoundError(`Artefact ${key} is missing from the artefact store`);
  return JSON.parse(body) as T;
}
