import yaml from 'js-yaml';
import type { Deletion } from '../deletions/deletion';
import type { ClusterRender } from './render-cluster';
import type { FilesBundle } from './files-bundle';

/**
 * A cluster's render as a tree of readable files (`clm render --out DIR`, and the golden files):
 *
 *   <cluster id, ':' → '_'>/
 *     config-items.yaml                      effective cluster config items
 *     values.yaml                            the deploy-time values the templates were given (Values.*)
 *     node-pools/<pool>/config-items.yaml    the pool's items (inherited ones included)
 *     node-pools/<pool>/userdata.yaml        rendered user data (the stack carries it gzipped + base64)
 *     node-pools/<pool>/files.yaml           the files bundle: S3 location, KMS key, files (base64 as rendered)
 *     etcd/files.yaml                        the etcd stack's files bundle (manage_etcd_stack)
 *     node-pools/<pool>/provisioners.yaml    Karpenter pools: the objects applied after the controller is ready
 *     stacks/<stack name>.yaml               rendered templates, as CloudFormation receives them
 *     manifests/<source>/<component>/<file>  the objects of each manifest file (comments gone)
 *     deletions.yaml                         pre_apply / post_apply of all sources, CLM's keys
 *     cf-deletions.yaml                      only when there are any
 *     errors.txt                             only when there are any
 *
 * Pure: a map of relative posix paths to contents; the caller writes it.
 */
export function renderTree(render: ClusterRender): Map<string, string> {
  const root = clusterDirName(render.id);
  const files = new Map<string, string>();
  const put = (path: string, content: string): void => {
    files.set(`${root}/${path}`, content);
  };

  put('config-items.yaml', dump(render.configItems));
  if (render.values) put('values.yaml', dump(plainData(render.values)));
  for (const pool of render.nodePools) put(`node-pools/${pool.name}/config-items.yaml`, dump(pool.configItems));
  for (const pool of render.poolDetails) {
    put(`node-pools/${pool.name}/userdata.yaml`, ensureNewline(pool.userData));
    put(`node-pools/${pool.name}/files.yaml`, filesYaml(pool.files));
  }
  if (render.etcd) put('etcd/files.yaml', filesYaml(render.etcd.files));
  for (const pool of render.karpenterPools ?? []) {
    if (pool.provisioners.length)
      put(`node-pools/${pool.name}/provisioners.yaml`, pool.provisioners.map((object) => dump(object)).join('---\n'));
  }
  for (const stack of render.stacks) put(`stacks/${stack.name}.yaml`, ensureNewline(stack.template));
  for (const file of render.manifests) {
    put(
      `manifests/${file.source}/${file.component}/${file.file}`,
      file.objects.map((object) => dump(object)).join('---\n'),
    );
  }
  put(
    'deletions.yaml',
    dump({
      pre_apply: render.deletions.preApply.map(clmDeletion),
      post_apply: render.deletions.postApply.map(clmDeletion),
    }),
  );
  if (render.cfDeletions.preApply.length || render.cfDeletions.postApply.length) {
    put(
      'cf-deletions.yaml',
      dump({ pre_apply: render.cfDeletions.preApply, post_apply: render.cfDeletions.postApply }),
    );
  }
  if (render.errors.length) put('errors.txt', `${render.errors.map((e) => e.message).join('\n')}\n`);
  return files;
}

/** `aws:123456789012:eu-central-1:kube-1` → `aws_123456789012_eu-central-1_kube-1` (safe on every filesystem). */
export function clusterDirName(id: string): string {
  return id.replaceAll(':', '_').replace(/[^A-Za-z0-9._-]/g, '_');
}

/** A normalized deletion written back with CLM's snake_case keys. */
function clmDeletion(deletion: Deletion): Record<string, unknown> {
  const d = deletion as Deletion & {
    name?: string;
    selector?: string;
    labels?: Record<string, string>;
    hasOwner?: boolean;
  };
  return {
    kind: d.kind,
    ...(d.namespace !== undefined ? { namespace: d.namespace } : {}),
    ...(d.name !== undefined ? { name: d.name } : {}),
    ...(d.selector !== undefined ? { selector: d.selector } : {}),
    ...(d.labels !== undefined ? { labels: d.labels } : {}),
    ...(d.hasOwner !== undefined ? { has_owner: d.hasOwner } : {}),
    ...(d.propagationPolicy !== undefined ? { propagation_policy: d.propagationPolicy } : {}),
    ...(d.gracePeriodSeconds !== undefined ? { grace_period_seconds: d.gracePeriodSeconds } : {}),
  };
}

/** Where a files bundle goes (bucket and key in the cluster's account), with which key, and what it holds. */
function filesYaml(files: FilesBundle): string {
  return dump({
    s3Path: files.s3Path,
    bucket: files.bucket,
    key: files.key,
    kmsKeyOutput: files.kmsKeyOutput,
    ...(files.kmsKeyId ? { kmsKeyId: files.kmsKeyId } : {}),
    files: files.files,
  });
}

/** A value as YAML can hold it: functions (methods of helper objects) left out. */
function plainData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainData);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => typeof v !== 'function' && v !== undefined)
      .map(([k, v]) => [k, plainData(v)]),
  );
}

function dump(value: unknown): string {
  return yaml.dump(value, { lineWidth: -1, noRefs: true, sortKeys: false });
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
