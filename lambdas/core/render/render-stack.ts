import { ConfigError } from '../../shared/errors';
import type { RenderRequest, TemplateEngine } from '../../ports/template-engine';
import { parseCfnTemplate } from '../cloudformation/cfn-yaml';
import type { CfnTemplate } from '../cloudformation/cfn-yaml';
import { mergeTags } from '../cloudformation/stack-names';
import { requireStackName, templateMetadata } from '../cloudformation/template-metadata';

/** A rendered CloudFormation stack, ready for the StackDeployer. */
export interface RenderedStack {
  readonly name: string;
  readonly kind: 'cluster' | 'node-pool' | 'cf-manifest' | 'etcd';
  readonly template: string;
  readonly tags: Readonly<Record<string, string>>;
  /** Node-pool stacks: the pool they hold. */
  readonly pool?: string;
  /** The stack policy passed with every update (StackPolicyDuringUpdateBody): the etcd stack's (CLM). */
  readonly stackPolicy?: string;
}

/** A rendered template, parsed. Undefined `template` means it rendered empty. */
export interface RenderedTemplate {
  readonly text: string;
  readonly template: CfnTemplate | undefined;
}

/** Render a CloudFormation template and parse it (short-form tags allowed); errors name the file. */
export async function renderCfnTemplate(engine: TemplateEngine, request: RenderRequest): Promise<RenderedTemplate> {
  const text = await engine.render(request);
  return { text, template: parseCfnTemplate(text, request.template.path) };
}

/**
 * A stack whose name CLM decides (the main stack, node pools): tags are the template's `Metadata.Tags`
 * with CLM's tags winning. An empty render is an error.
 */
export function namedStack(
  rendered: RenderedTemplate,
  file: string,
  spec: { name: string; kind: 'cluster' | 'node-pool' | 'etcd'; tags: Record<string, string>; pool?: string },
): RenderedStack {
  if (!rendered.template) throw new ConfigError('the stack template rendered empty', { location: { file } });
  requireResources(rendered.template, file);
  const metadata = templateMetadata(rendered.template, file);
  return {
    name: spec.name,
    kind: spec.kind,
    template: rendered.text,
    tags: mergeTags(metadata.tags, spec.tags),
    ...(spec.pool ? { pool: spec.pool } : {}),
  };
}

/** A cf-manifest: its name comes from `Metadata.StackName` (required); an empty render is skipped (undefined). */
export function cfManifestStack(
  rendered: RenderedTemplate,
  file: string,
  clmTags: Record<string, string>,
): RenderedStack | undefined {
  if (!rendered.template) return undefined;
  const metadata = requireStackName(rendered.template, file);
  requireResources(rendered.template, file);
  return {
    name: metadata.stackName,
    kind: 'cf-manifest',
    template: rendered.text,
    tags: mergeTags(metadata.tags, clmTags),
  };
}

/**
 * CloudFormation rejects a template without resources only when the stack is deployed; checked here, at
 * render time, so the whole cluster fails before any stack is touched.
 */
export function requireResources(template: CfnTemplate, file: string): void {
  const resources = template.Resources;
  const isMapping = typeof resources === 'object' && resources !== null && !Array.isArray(resources);
  if (!isMapping || !Object.keys(resources).length) {
    throw new ConfigError('the stack template has no Resources (CloudFormation needs at least one resource)', {
      location: { file, field: 'Resources' },
    });
  }
}
