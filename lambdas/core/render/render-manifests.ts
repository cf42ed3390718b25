import type { KubeObject } from '../../ports/kube-cluster';
import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateEngine } from '../../ports/template-engine';
import type { Cluster } from '../model/cluster';
import { manifestObjectIssues } from '../manifests/validate-objects';
import type { ManifestFileObjects } from '../manifests/validate-objects';
import { fileName, manifestComponents } from './config-layout';
import type { Values } from './pool-values';
import { collecting } from './render-issue';
import type { RenderIssue } from './render-issue';
import { siblingResolver } from './sibling-resolver';
import { splitManifests } from './split-manifests';
import { renderContext } from './render-context';

/** One manifest file of a component, rendered and split into objects. */
export interface RenderedManifestFile {
  readonly source: string;
  readonly component: string;
  readonly file: string;
  readonly objects: readonly KubeObject[];
}

export interface RenderedManifests {
  /** In apply order: sources in order, components and files lexical. Files that render empty are left out. */
  readonly files: readonly RenderedManifestFile[];
  readonly errors: readonly RenderIssue[];
  /** Accepted as CLM accepts them, but worth fixing: a repeated key in a manifest (`file:line: …`). */
  readonly warnings: readonly string[];
}

/**
 * Every manifest component of every source (CLM §4.5): each top-level file of `cluster/manifests/<component>/`
 * rendered with Cluster and Values (`manifestHash` resolves siblings relative to the file), then split into
 * objects. A broken file is reported and the others still render.
 */
export async function renderManifests(
  cluster: Cluster,
  snapshots: readonly ConfigSnapshot[],
  values: Values,
  engine: TemplateEngine,
): Promise<RenderedManifests> {
  const context = renderContext(cluster, values);
  const bySource = new Map(snapshots.map((snapshot) => [snapshot.sourceName, snapshot]));
  const files: RenderedManifestFile[] = [];
  const errors: RenderIssue[] = [];
  const warnings: string[] = [];
  const paths: ManifestFileObjects[] = [];
  for (const component of manifestComponents(snapshots)) {
    const snapshot = bySource.get(component.source)!;
    for (const template of component.files) {
      const objects = await collecting(errors, template.path, async () => {
        const text = await engine.render({ template, context, sibling: siblingResolver(snapshot, template) });
        return splitManifests(text, template.path, warnings);
      });
      if (!objects?.length) continue;
      files.push({ source: component.source, component: component.component, file: fileName(template), objects });
      paths.push({ path: template.path, objects });
    }
  }
  return { files, errors: [...errors, ...manifestObjectIssues(paths)], warnings };
}
