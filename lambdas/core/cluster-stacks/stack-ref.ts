import { ConfigError } from '../../shared/errors';
import type { Cluster } from '../model/cluster';

/** A cluster stack directory: `providers/<provider>/<stack>/<k8s-major-minor>/` (SCS Cluster Stacks layout). */
export interface StackRef {
  readonly provider: string;
  readonly stack: string;
  /** The directory name, `1-30`. */
  readonly kubernetesDir: string;
  readonly kubernetes: { readonly major: number; readonly minor: number };
}

/** Config items of a cluster (registry or config defaults) that pin a stack. */
export const STACK_ITEM = 'cluster_stack';
export const STACK_VERSION_ITEM = 'cluster_stack_version';
/** The value of `cluster_stack_version` (also its default) that follows the newest version its channel holds. */
export const LATEST = 'latest';

const NAME = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;
const KUBERNETES_DIR = /^(\d+)-(\d+)$/;

export const PROVIDERS_DIR = 'providers';

/** `aws/default/1-30` → its parts. `where` names the item or file the text came from. */
export function parseStackRef(
  text: string,
  where: { clusterId?: string; field?: string; file?: string } = {},
): StackRef {
  const parts = text.trim().split('/');
  const fail = (message: string): never => {
    throw new ConfigError(`cluster stack ${JSON.stringify(text)}: ${message}`, { location: where });
  };
  if (parts.length !== 3) fail('expected <provider>/<stack>/<k8s-major-minor>, e.g. aws/default/1-30');
  const [provider, stack, kubernetesDir] = parts;
  if (!NAME.test(provider)) fail(`provider ${JSON.stringify(provider)} is not a lower-case name`);
  if (!NAME.test(stack)) fail(`stack ${JSON.stringify(stack)} is not a lower-case name`);
  const match = KUBERNETES_DIR.exec(kubernetesDir);
  if (!match) fail(`${JSON.stringify(kubernetesDir)} is not a Kubernetes major-minor directory like 1-30`);
  return {
    provider,
    stack,
    kubernetesDir,
    kubernetes: { major: Number(match![1]), minor: Number(match![2]) },
  };
}

export function stackRefText(ref: StackRef): string {
  return `${ref.provider}/${ref.stack}/${ref.kubernetesDir}`;
}

/** `providers/aws/default/1-30/`: where the stack lives in a config source. */
export function stackDirectory(ref: StackRef): string {
  return `${PROVIDERS_DIR}/${stackRefText(ref)}/`;
}

/**
 * What a cluster asks for: a stack and a version (`vN`) or `latest` (follow the newest its channel holds); or a
 * released version by its digest (`v4@sha256:<hex>`), read from the release store, never from the config source.
 */
export interface StackPin {
  readonly ref: StackRef;
  readonly version: string;
  /** `sha256:<64 hex>` of the released tarball. */
  readonly digest?: string;
}

const RELEASED_PIN = /^(v\d+)@(sha256:[0-9a-f]{64})$/;

/** The cluster's pin from its config items, or undefined when it uses the plain `cluster/…` tree. */
export function clusterStackPin(cluster: Pick<Cluster, 'id' | 'configItems'>): StackPin | undefined {
  const raw = cluster.configItems[STACK_ITEM];
  const version = cluster.configItems[STACK_VERSION_ITEM];
  if (raw === undefined || raw.trim() === '') {
    if (version !== undefined)
      throw new ConfigError(
        `${STACK_VERSION_ITEM} is set but ${STACK_ITEM} is not; name the stack (aws/default/1-30)`,
        {
          location: { clusterId: cluster.id, field: `config_items.${STACK_VERSION_ITEM}` },
        },
      );
    return undefined;
  }
  const ref = parseStackRef(raw, { clusterId: cluster.id, field: `config_items.${STACK_ITEM}` });
  const pinned = (version ?? LATEST).trim();
  const released = RELEASED_PIN.exec(pinned);
  if (released) return { ref, version: released[1], digest: released[2] };
  if (pinned !== LATEST && !/^v\d+$/.test(pinned))
    throw new ConfigError(
      `${JSON.stringify(version)} is neither a stack version like v4, a released one like v4@sha256:<64 hex digits> (clm stack release prints it), nor "${LATEST}"`,
      { location: { clusterId: cluster.id, field: `config_items.${STACK_VERSION_ITEM}` } },
    );
  return { ref, version: pinned };
}
