/**
 * How a template reaches CloudFormation: inline as `TemplateBody` up to CloudFormation's limit, else uploaded to the
 * template store (keyed by its digest, so an unchanged template is the same object) and passed as `TemplateURL`.
 */
import { createHash } from 'node:crypto';
import type { ArtifactStore } from '../../ports/artifact-store';
import type { StackSpec } from '../../ports/stack-deployer';
import { ConfigError } from '../../shared/errors';

/** CloudFormation's limit for an inline TemplateBody, in bytes. */
export const MAX_INLINE_TEMPLATE_BYTES = 51_200;

export type TemplateSource = { TemplateBody: string } | { TemplateURL: string };

/** Where templates over the inline limit go; without a store (or one without `urlFor`) they are a ConfigError. */
export interface TemplateUpload {
  readonly templateStore?: ArtifactStore;
  /** @default 'templates/' */
  readonly templateKeyPrefix?: string;
}

export async function templateSource(spec: StackSpec, upload: TemplateUpload): Promise<TemplateSource> {
  const bytes = Buffer.byteLength(spec.templateBody, 'utf8');
  if (bytes <= MAX_INLINE_TEMPLATE_BYTES) return { TemplateBody: spec.templateBody };
  const store = upload.templateStore;
  if (!store?.urlFor) {
    throw new ConfigError(
      `The template of stack ${spec.name} is ${bytes} bytes, over CloudFormation's ${MAX_INLINE_TEMPLATE_BYTES}-byte limit for inline templates, and no template bucket is configured`,
    );
  }
  const digest = createHash('sha256').update(spec.templateBody).digest('hex');
  const key = `${upload.templateKeyPrefix ?? 'templates/'}${spec.name}/${digest}.template`;
  await store.put(key, spec.templateBody);
  return { TemplateURL: store.urlFor(key) };
}
