import type { KubeObject } from '../../ports/kube-cluster';
import { isRecord } from '../config/plain-data';

/**
 * Karpenter's objects as CLM reads them (reference/clm-behaviour.md §7.1, §7.6): a NodePool (karpenter.sh/v1) and its
 * EC2NodeClass (karpenter.k8s.aws/v1) per pool, one NodeClaim per launched instance, nodes labelled with their pool.
 */

export const NODEPOOL_API_VERSION = 'karpenter.sh/v1';
export const EC2NODECLASS_API_VERSION = 'karpenter.k8s.aws/v1';

/** On Nodes and NodeClaims Karpenter launched, and as a tag key on their EC2 instances. */
export const NODEPOOL_LABEL = 'karpenter.sh/nodepool';
export const NODEPOOL_HASH = 'karpenter.sh/nodepool-hash';
export const NODEPOOL_HASH_VERSION = 'karpenter.sh/nodepool-hash-version';
export const NODECLASS_HASH = 'karpenter.k8s.aws/ec2nodeclass-hash';
export const NODECLASS_HASH_VERSION = 'karpenter.k8s.aws/ec2nodeclass-hash-version';

/** The controller Deployment CLM waits for: config item `karpenter_controller` (`namespace/name`). */
export const DEFAULT_KARPENTER_CONTROLLER = 'kube-system/karpenter';

export function annotationsOf(object: KubeObject | undefined): Readonly<Record<string, string>> {
  return object?.metadata.annotations ?? {};
}

/** The EC2NodeClass a NodePool refers to (`spec.template.spec.nodeClassRef.name`), falling back to the pool's name. */
export function nodeClassName(nodePool: KubeObject | undefined, poolName: string): string {
  const ref = path(nodePool, ['spec', 'template', 'spec', 'nodeClassRef']);
  return isRecord(ref) && typeof ref.name === 'string' && ref.name ? ref.name : poolName;
}

/** The condition of `type` in `status.conditions` is `True`. */
export function conditionTrue(object: KubeObject, type: string): boolean {
  const conditions = path(object, ['status', 'conditions']);
  return (
    Array.isArray(conditions) &&
    conditions.some((c) => isRecord(c) && c.type === type && String(c.status).toLowerCase() === 'true')
  );
}

/**
 * Why a NodeClaim's node is outdated (CLM `aws_ec2.go`, §7.1), or undefined when it is current: its `Drifted`
 * condition is True, or its NodePool hash (and hash version) or EC2NodeClass hash (and version) annotations differ
 * from the current objects'. A hash missing on either side is ignored.
 */
export function driftReason(
  nodeClaim: KubeObject,
  nodePool: KubeObject | undefined,
  nodeClass: KubeObject | undefined,
): string | undefined {
  if (conditionTrue(nodeClaim, 'Drifted')) return 'Drifted';
  const claim = annotationsOf(nodeClaim);
  const differs = (owner: KubeObject | undefined, key: string): boolean => {
    const want = annotationsOf(owner)[key];
    const have = claim[key];
    return want !== undefined && have !== undefined && want !== have;
  };
  if (differs(nodePool, NODEPOOL_HASH) || differs(nodePool, NODEPOOL_HASH_VERSION)) return 'NodePool changed';
  if (differs(nodeClass, NODECLASS_HASH) || differs(nodeClass, NODECLASS_HASH_VERSION)) return 'EC2NodeClass changed';
  return undefined;
}

/** `aws:///<zone>/<instance-id>` of a NodeClaim (empty while it launches). */
export function nodeClaimProviderId(nodeClaim: KubeObject): string {
  const id = path(nodeClaim, ['status', 'providerID']);
  return typeof id === 'string' ? id : '';
}

export function nodeClaimNodeName(nodeClaim: KubeObject): string | undefined {
  const name = path(nodeClaim, ['status', 'nodeName']);
  return typeof name === 'string' && name ? name : undefined;
}

export function isDeleting(object: KubeObject): boolean {
  return typeof object.metadata.deletionTimestamp === 'string';
}

function path(object: unknown, keys: readonly string[]): unknown {
  let at: unknown = object;
  for (const key of keys) {
    if (!isRecord(at)) return undefined;
    at = at[key];
  }
  return at;
}

/**
 * Whether changing the field at `path` (dotted, as field-diff.ts writes it) of a Karpenter object drifts the pool's
 * nodes: any field of an EC2NodeClass's spec (its static hash, or the AMIs, subnets and security groups it resolves to),
 * and of a NodePool's `spec.template` (its hash leaves out the disruption settings, limits and weight).
 */
export function changeDriftsNodes(kind: string, path: string): boolean {
  if (kind === 'NodePool') return path === 'spec.template' || path.startsWith('spec.template.');
  return kind === 'EC2NodeClass' && (path === 'spec' || path.startsWith('spec.'));
}
