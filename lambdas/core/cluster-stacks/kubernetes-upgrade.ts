import { ConfigError, type SourceLocation } from '../../shared/errors';

export interface MinorVersion {
  readonly major: number;
  readonly minor: number;
}

/** How many minors a kubelet may be older than the API server (Kubernetes ≥ 1.28). */
export const KUBELET_SKEW = 3;

export interface UpgradeCheck {
  /** The control plane's version now (the stack the cluster runs), undefined for a new cluster. */
  readonly from?: MinorVersion;
  readonly to: MinorVersion;
  /** The versions the worker nodes run now (default: the control plane's). */
  readonly workers?: readonly MinorVersion[];
  /** Whether the run rolls nodes (false under --apply-only). */
  readonly rollsNodes: boolean;
}

const text = (v: MinorVersion) => `${v.major}.${v.minor}`;

/**
 * The Kubernetes upgrade rules, checked before anything is written: one minor at a time (no skip, no
 * downgrade, no major change), the control plane first — the master pools roll before any worker pool, so a
 * minor upgrade must roll nodes — and the version skew: no kubelet newer than the API server nor more than
 * three minors older. Returns a description of the upgrade, undefined when the minor stays, or throws a
 * ConfigError at `where`.
 */
export function checkKubernetesUpgrade(check: UpgradeCheck, where: SourceLocation): string | undefined {
  const { from, to } = check;
  if (!from || (from.major === to.major && from.minor === to.minor)) return undefined;
  const fail = (message: string): never => {
    throw new ConfigError(`Kubernetes ${text(from)} → ${text(to)}: ${message}`, { location: where });
  };
  if (from.major !== to.major) fail('a change of major version is not supported');
  if (to.minor < from.minor) fail('a downgrade is not supported');
  if (to.minor - from.minor > 1)
    fail(
      `one minor at a time: upgrade to ${to.major}.${from.minor + 1} first (its <k8s-major-minor> directory), then on`,
    );
  if (!check.rollsNodes) fail('a minor upgrade rolls every node (control plane first), so --apply-only is refused');
  for (const worker of check.workers ?? [from]) {
    if (worker.major !== to.major || worker.minor > to.minor)
      fail(`worker nodes at ${text(worker)} would be newer than the API server`);
    if (to.minor - worker.minor > KUBELET_SKEW)
      fail(
        `worker nodes at ${text(worker)} would be ${to.minor - worker.minor} minors behind the API server (at most ${KUBELET_SKEW})`,
      );
  }
  return `Kubernetes upgrade ${text(from)} → ${text(to)}: control plane (master pools) first, then the workers`;
}
