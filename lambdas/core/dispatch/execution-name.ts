import { createHash } from 'node:crypto';
import type { DispatchAction } from './fleet-state';

/** Step Functions execution names: 1–80 characters of letters, digits, `-` and `_`. */
export const EXECUTION_NAME_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;

const PREFIX: Record<DispatchAction, string> = { update: 'update', decommission: 'decom' };
const SLUG_MAX = 36;
const DIGEST_HEX = 20;
const FULL_SHA = /^[0-9a-f]{40}(?=#|$)/i;

/**
 * The execution name for one cluster, target version and attempt: the same inputs always give the same
 * name, so a second start of the same work is Step Functions' harmless "already exists".
 *
 *   update-kube-1-3f2a9c1b-7d1e0c9a4b2f6e8d1a3c          (attempt 1)
 *   update-kube-1-3f2a9c1b-7d1e0c9a4b2f6e8d1a3c-r2       (the second attempt at the same version)
 *
 * The readable parts are the cluster's local id and, when the config version is a commit, its first eight
 * characters; the digest (SHA-256 of cluster id and target version) keeps clusters with the same local id
 * in different accounts, and every version, apart. At most 80 characters.
 */
export function executionName(input: {
  readonly clusterId: string;
  readonly localId: string;
  readonly action: DispatchAction;
  readonly targetVersion: string;
  readonly attempt: number;
}): string {
  const digest = createHash('sha256')
    .update(`${input.action}\u0000${input.clusterId}\u0000${input.targetVersion}`)
    .digest('hex')
    .slice(0, DIGEST_HEX);
  const configVersion = input.targetVersion.replace(/^decommission#/, '');
  const commit = FULL_SHA.exec(configVersion)?.[0].slice(0, 8).toLowerCase();
  const parts = [PREFIX[input.action], slug(input.localId), commit, digest].filter(Boolean);
  const attempt = input.attempt > 1 ? `-r${input.attempt}` : '';
  return `${parts.join('-')}${attempt}`;
}

function slug(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}
