import type { KubeObject } from '../../ports/kube-cluster';
import { karpenterRequirements } from '../karpenter/karpenter-pool';
import { karpenterPoolTemplates } from './config-layout';
import type { FilesBundle } from './files-bundle';
import { renderContext } from './render-context';
import { renderFilesBundle, type NodePoolInput } from './render-node-pool';
import { splitManifests } from './split-manifests';

/** A rendered Karpenter pool: no stack; its provisioners.yaml objects are applied once the Karpenter controller is up. */
export interface RenderedKarpenterPool {
  readonly name: string;
  readonly profile: string;
  readonly files: FilesBundle;
  /** The rendered userdata.yaml, as it is: templates get it raw as `Values.UserData` (CLM §4.3). */
  readonly userData: string;
  /** provisioners.yaml split into objects (KoA: a Karpenter NodePool and an EC2NodeClass named after the pool). */
  readonly provisioners: readonly KubeObject[];
}

/**
 * One Karpenter pool (`worker-karpenter`, CLM §6.2 step 21), from `cluster/node-pools/<profile>/` of the first source:
 * `files.yaml` → the files bundle (uploaded under `worker/`, the worker KMS key) → `Values.S3GeneratedFilesPath`;
 * `userdata.yaml` → `Values.UserData` as raw text (not gzipped); `provisioners.yaml` → Kubernetes objects, an empty
 * render meaning nothing to apply. The `requirements` item is checked first, so a broken one fails with a ConfigError
 * naming the cluster, the pool and the field whether or not a template reads it.
 */
export async function renderKarpenterPool(
  input: NodePoolInput,
  warnings: string[] = [],
): Promise<RenderedKarpenterPool> {
  const { cluster, pool, engine } = input;
  karpenterRequirements(pool, cluster.id);
  const templates = karpenterPoolTemplates(input.snapshots, pool);
  const values: Record<string, unknown> = { ...input.values };
  const files = await renderFilesBundle(input, templates.files, values, 'worker');
  const userData = await engine.render({ template: templates.userdata, context: renderContext(cluster, values, pool) });
  values.UserData = userData;
  const text = await engine.render({ template: templates.provisioners, context: renderContext(cluster, values, pool) });
  const provisioners = splitManifests(text, templates.provisioners.path, warnings);
  return { name: pool.name, profile: pool.profile, files, userData, provisioners };
}
