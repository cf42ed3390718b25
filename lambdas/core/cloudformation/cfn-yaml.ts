import yaml from 'js-yaml';
import { ConfigError } from '../../shared/errors';
import { loadYaml } from '../config/yaml-error';
import { DATA_SCHEMA } from '../config/yaml-data';

/**
 * CloudFormation YAML: the short-form intrinsic tags (`!Ref`, `!GetAtt`, `!Sub`, ...) become their long
 * form (`{ Ref: x }`, `{ 'Fn::GetAtt': [a, b] }`), so a parsed template is plain JSON that CloudFormation
 * (and moto) accept as a JSON template body. Scalars keep their written type: `AWSTemplateFormatVersion: 2010-09-09`
 * stays the string CloudFormation reads, not a date.
 */

type Kind = 'scalar' | 'sequence' | 'mapping';

/** `!Name` → `Fn::Name`, for every tag that maps one-to-one. */
const FN_TAGS = [
  'Base64',
  'Cidr',
  'FindInMap',
  'GetAZs',
  'ImportValue',
  'Join',
  'Select',
  'Split',
  'Sub',
  'Transform',
  'And',
  'Equals',
  'If',
  'Not',
  'Or',
  'ToJsonString',
  'Length',
] as const;

const KINDS: readonly Kind[] = ['scalar', 'sequence', 'mapping'];

function typesFor(tag: string, construct: (data: unknown) => unknown): yaml.Type[] {
  return KINDS.map(
    (kind) =>
      new yaml.Type(`!${tag}`, {
        kind,
        // A tag without a value (`!GetAZs`) is an empty string: `!GetAZs ''` means "the current region".
        construct: (data: unknown) => construct(data ?? ''),
      }),
  );
}

/** `!GetAtt Resource.Attribute` (scalar, split at the first dot) or `!GetAtt [Resource, Attribute]`. */
function getAtt(data: unknown): unknown {
  if (typeof data === 'string') {
    const dot = data.indexOf('.');
    return { 'Fn::GetAtt': dot < 0 ? [data] : [data.slice(0, dot), data.slice(dot + 1)] };
  }
  return { 'Fn::GetAtt': data };
}

export const CFN_SCHEMA: yaml.Schema = DATA_SCHEMA.extend([
  ...typesFor('Ref', (data) => ({ Ref: data })),
  ...typesFor('Condition', (data) => ({ Condition: data })),
  ...typesFor('GetAtt', getAtt),
  ...FN_TAGS.flatMap((name) => typesFor(name, (data) => ({ [`Fn::${name}`]: data }))),
]);

/** A parsed CloudFormation template (long-form intrinsics only). */
export type CfnTemplate = Record<string, unknown>;

/**
 * Parse a rendered CloudFormation YAML (or JSON) template. An empty document gives `undefined`
 * (CLM skips empty cf-manifests). Throws ConfigError naming the file and line.
 */
export function parseCfnTemplate(text: string, file: string): CfnTemplate | undefined {
  const parsed = loadYaml(text, file, CFN_SCHEMA);
  if (parsed === undefined || parsed === null) return undefined;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('a CloudFormation template must be a YAML mapping', { location: { file } });
  }
  return parsed as CfnTemplate;
}
