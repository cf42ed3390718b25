import yaml from 'js-yaml';
import { ConfigError } from '../../shared/errors';
import { yamlError } from '../config/yaml-error';

/** The metadata.yaml of a cluster stack (SCS Cluster Stacks): the source of truth for its versions. */
export interface StackMetadata {
  /** `vN`: bumped by any change in any layer. It is also the cluster class's version. */
  readonly clusterStack: string;
  /** `v1.30.5`: its major.minor must match the stack's `<k8s-major-minor>` directory. */
  readonly kubernetes: string;
  readonly components: {
    readonly clusterAddon: string;
    readonly nodeImage: string;
  };
}

export const METADATA_FILE = 'metadata.yaml';
export const METADATA_API_VERSION = 'metadata.clusterstack.x-k8s.io/v1alpha1';
const COMPONENT_VERSION = /^v\d+$/;
const KUBERNETES_VERSION = /^v(\d+)\.(\d+)\.(\d+)$/;

/**
 * Parse and validate a stack's metadata.yaml. Every problem is a ConfigError naming the file and the field
 * (`versions.components.nodeImage`), so a CI step or an update says exactly what to fix.
 */
export function parseStackMetadata(text: string, file: string): StackMetadata {
  let document: unknown;
  try {
    document = yaml.load(text, { filename: file, schema: yaml.CORE_SCHEMA });
  } catch (error) {
    throw yamlError(error, file);
  }
  const fail = (field: string, message: string): never => {
    throw new ConfigError(message, { location: { file, field } });
  };
  const root = asMapping(document) ?? fail('(document)', 'expected a mapping with apiVersion and versions');
  if (root.apiVersion !== METADATA_API_VERSION)
    fail('apiVersion', `expected ${METADATA_API_VERSION}, got ${JSON.stringify(root.apiVersion ?? null)}`);
  const versions =
    asMapping(root.versions) ?? fail('versions', 'missing (a mapping of clusterStack, kubernetes, components)');
  const components =
    asMapping(versions.components) ?? fail('versions.components', 'missing (a mapping of clusterAddon and nodeImage)');
  const version = (value: unknown, field: string, pattern: RegExp, example: string): string =>
    typeof value === 'string' && pattern.test(value)
      ? value
      : fail(field, `expected a version like ${example}, got ${JSON.stringify(value ?? null)}`);
  return {
    clusterStack: version(versions.clusterStack, 'versions.clusterStack', COMPONENT_VERSION, 'v4'),
    kubernetes: version(versions.kubernetes, 'versions.kubernetes', KUBERNETES_VERSION, 'v1.30.5'),
    components: {
      clusterAddon: version(components.clusterAddon, 'versions.components.clusterAddon', COMPONENT_VERSION, 'v2'),
      nodeImage: version(components.nodeImage, 'versions.components.nodeImage', COMPONENT_VERSION, 'v2'),
    },
  };
}

/** `v1.30.5` → { major: 1, minor: 30 }. The version was validated by parseStackMetadata. */
export function kubernetesMinor(version: string): { readonly major: number; readonly minor: number } {
  const match = KUBERNETES_VERSION.exec(version);
  if (!match) throw new ConfigError(`not a Kubernetes version: ${JSON.stringify(version)} (expected like v1.30.5)`);
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/** `v4` → 4 (versions are compared by number, so v10 follows v9). */
export function versionNumber(version: string): number {
  return Number(version.slice(1));
}

function asMapping(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
