import { parseCfnTemplate } from '../cloudformation/cfn-yaml';
import type { ClusterRender } from './render-cluster';
import type { RenderIssue } from './render-issue';
import type { FilesBundle } from './files-bundle';

/**
 * What `clm render --output json` prints: one document, `{ "clusters": [...] }`. Stack templates are
 * given as parsed objects (short-form tags in their long form), so `jq` can reach into them.
 */
export function renderJsonDocument(renders: readonly ClusterRender[]): { clusters: Record<string, unknown>[] } {
  return {
    clusters: renders.map((render) => ({
      id: render.id,
      version: render.version,
      configItems: render.configItems,
      nodePools: render.nodePools,
      stacks: render.stacks.map((stack) => ({
        name: stack.name,
        kind: stack.kind,
        template: templateObject(stack.template, stack.name),
        tags: stack.tags,
      })),
      manifests: render.manifests,
      filesBundles: filesBundlesOf(render).map(({ owner, files }) => ({
        owner,
        s3Path: files.s3Path,
        kmsKey: files.kmsKeyId ?? files.kmsKeyOutput,
      })),
      ...(render.karpenterPools?.length
        ? { karpenterPools: render.karpenterPools.map((p) => ({ name: p.name, provisioners: p.provisioners })) }
        : {}),
      deletions: render.deletions,
      cfDeletions: render.cfDeletions,
      errors: render.errors,
    })),
  };
}

function templateObject(text: string, name: string): unknown {
  try {
    return parseCfnTemplate(text, name) ?? {};
  } catch {
    return text;
  }
}

/** The text summary of one cluster: version, counts, deletions and every error with file:line. */
export function renderSummary(render: ClusterRender): string {
  const objects = render.manifests.reduce((n, file) => n + file.objects.length, 0);
  const components = new Set(render.manifests.map((file) => `${file.source}/${file.component}`)).size;
  const lines = [
    `${render.id}${render.errors.length ? '  FAILED' : ''}`,
    `  version    ${render.version || '(unknown)'}`,
    `  stacks     ${render.stacks.length}${render.stacks.length ? `: ${render.stacks.map((s) => s.name).join(', ')}` : ''}`,
    `  manifests  ${render.manifests.length} files, ${objects} objects in ${components} components`,
    ...filesLine(render),
    ...(render.karpenterPools?.length
      ? [
          `  karpenter  ${render.karpenterPools.length} pool(s): ${render.karpenterPools
            .map(
              (p) =>
                `${p.name} (${p.provisioners.map((o) => `${o.kind} ${o.metadata.name}`).join(', ') || 'nothing to apply'})`,
            )
            .join(', ')}`,
        ]
      : []),
    `  deletions  pre_apply ${render.deletions.preApply.length}, post_apply ${render.deletions.postApply.length}; cf-deletions pre_apply ${render.cfDeletions.preApply.length}, post_apply ${render.cfDeletions.postApply.length}`,
    `  errors     ${render.errors.length}`,
    ...render.errors.map((issue) => `    - ${indentContinuation(issueText(issue))}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Every files bundle of the render, named by the pool (or `etcd`) it belongs to. */
function filesBundlesOf(render: ClusterRender): { owner: string; files: FilesBundle }[] {
  return [
    ...(render.etcd ? [{ owner: 'etcd', files: render.etcd.files }] : []),
    ...render.poolDetails.map((pool) => ({ owner: pool.name, files: pool.files })),
  ];
}

/** `files      3 bundles in s3://<bucket>/<local id>/ (master, worker)`: where the nodes' files would go. */
function filesLine(render: ClusterRender): string[] {
  const bundles = filesBundlesOf(render).map((b) => b.files);
  if (!bundles.length) return [];
  const places = [...new Set(bundles.map((b) => `s3://${b.bucket}/${b.key.split('/')[0]}/`))];
  const roles = [...new Set(bundles.map((b) => b.role))];
  return [`  files      ${bundles.length} bundle(s) in ${places.join(', ')} (${roles.join(', ')})`];
}

function issueText(issue: RenderIssue): string {
  return issue.message;
}

function indentContinuation(text: string): string {
  return text.replaceAll('\n', '\n      ');
}
