import { ConfigError } from '../../shared/errors';
import { isRecord, scalarText } from '../config/plain-data';
import type { CfnTemplate } from './cfn-yaml';

/** What CLM reads from a template's `Metadata` section: `StackName` (cf-manifests) and `Tags`. */
export interface TemplateMetadata {
  readonly stackName?: string;
  readonly tags: Record<string, string>;
}

/**
 * Read `Metadata.StackName` and `Metadata.Tags` (a map of strings; numbers and booleans are taken as
 * their text, as Go's YAML decoder does). Throws ConfigError naming the file and the field.
 */
export function templateMetadata(template: CfnTemplate, file: string): TemplateMetadata {
  const metadata = template.Metadata;
  if (metadata === undefined || metadata === null) return { tags: {} };
  if (!isRecord(metadata))
    throw new ConfigError('Metadata must be a mapping', { location: { file, field: 'Metadata' } });
  const { StackName: stackName, Tags: tags } = metadata;
  if (stackName !== undefined && (typeof stackName !== 'string' || stackName === '')) {
    throw new ConfigError('Metadata.StackName must be a non-empty string', {
      location: { file, field: 'Metadata.StackName' },
    });
  }
  return { stackName, tags: readTags(tags, file) };
}

function readTags(tags: unknown, file: string): Record<string, string> {
  if (tags === undefined || tags === null) return {};
  if (!isRecord(tags))
    throw new ConfigError('Metadata.Tags must be a mapping of tag names to values', {
      location: { file, field: 'Metadata.Tags' },
    });
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(tags)) {
    const text = scalarText(value);
    if (text !== undefined) result[key] = text;
    else
      throw new ConfigError(`Metadata.Tags.${key} must be a string`, {
        location: { file, field: `Metadata.Tags.${key}` },
      });
  }
  return result;
}

/** `Metadata.StackName`, required for cf-manifests. */
export function requireStackName(template: CfnTemplate, file: string): TemplateMetadata & { stackName: string } {
  const metadata = templateMetadata(template, file);
  if (!metadata.stackName) {
    throw new ConfigError('a cf-manifest must declare Metadata.StackName (the name of the stack to create)', {
      location: { file, field: 'Metadata.StackName' },
    });
  }
  return { ...metadata, stackName: metadata.stackName };
}
