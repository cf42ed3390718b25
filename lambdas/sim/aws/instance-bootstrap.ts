import { authorize } from '../../core/iam/policy-evaluation';
import { policyStatements } from '../../core/iam/policy-document';
import { bootstrapNodeSync, type Outcome, type SyncBootstrapEnvironment } from '../../core/nodes/node-bootstrap';
import type { SimContext } from '../sim-context';
import type { AccountState, InstanceRecord } from '../world-state';
import { bucketPolicy, findInstanceProfile, findRole, identityPolicies, type Located } from './access-model';
import { decrypt, KmsError } from './kms';
import { findBucket, objectBytes } from './s3';

/**
 * An instance coming up runs a CLM node's bootstrap (core/nodes/node-bootstrap.ts) in the simulated world: as the role
 * of its instance profile it downloads every files bundle its user data names and decrypts their `.enc` files — each
 * call allowed only as AWS would allow it (core/iam/policy-evaluation.ts over the policies its account's stacks made:
 * the role's, the bucket's, the key's). What fails is recorded on the instance, and its node stays NotReady saying so.
 */

export interface InstanceBoot {
  readonly ok: boolean;
  readonly detail: string;
}

type Role = Located['model'];

export function bootstrapInstance(ctx: SimContext, account: AccountState, instance: InstanceRecord): InstanceBoot {
  const bundles = instance.bundles ?? [];
  if (bundles.length === 0) return { ok: true, detail: 'no files bundle named in its user data' };
  const role = instanceRole(ctx, account, instance);
  if (typeof role === 'string') return { ok: false, detail: `${bundlesNamed(bundles)}: ${role}` };
  const result = bootstrapNodeSync(bundles, environment(ctx, account, role));
  return result.ok
    ? { ok: true, detail: `${result.bundles.join(', ')}: ${result.files} files, ${result.decrypted} decrypted` }
    : { ok: false, detail: result.reason };
}

const bundlesNamed = (bundles: readonly { bucket: string; key: string }[]) =>
  `files bundle ${bundles.map((b) => `s3://${b.bucket}/${b.key}`).join(', ')}`;

/** The role the node's credentials are for, or why it has none. */
function instanceRole(ctx: SimContext, account: AccountState, instance: InstanceRecord): Role | string {
  if (instance.role) {
    const role = findRole(ctx, account.accountId, instance.role);
    return role ? role.model : `its role ${instance.role} does not exist in account ${account.accountId}`;
  }
  if (!instance.instanceProfile) return 'the instance has no instance profile, so no credentials to fetch it with';
  const profile = findInstanceProfile(ctx, account.accountId, instance.instanceProfile);
  if (!profile)
    return `its instance profile ${instance.instanceProfile} does not exist in account ${account.accountId}`;
  const [roleName] = (profile.model.roles as string[]) ?? [];
  if (!roleName) return `its instance profile ${instance.instanceProfile} has no role`;
  const role = findRole(ctx, account.accountId, roleName);
  return role ? role.model : `the role ${roleName} of instance profile ${instance.instanceProfile} does not exist`;
}

function environment(ctx: SimContext, account: AccountState, role: Role): SyncBootstrapEnvironment {
  const caller = { arn: String(role.arn), account: account.accountId };
  const identity = identityPolicies(ctx, account.accountId, role).map((p) => ({
    name: p.name,
    statements: policyStatements(p.document),
  }));
  const denied = (reason: string): Outcome<Uint8Array> => ({ ok: false, reason: `AccessDenied: ${reason}` });
  return {
    fetch(bucket, key) {
      const owner = findBucket(ctx, bucket);
      if (!owner) return { ok: false, reason: `NoSuchBucket: no bucket ${bucket} exists` };
      const policy = bucketPolicy(ctx, owner.account.accountId, bucket);
      const decision = authorize(
        {
          caller,
          action: 's3:GetObject',
          resource: `arn:aws:s3:::${bucket}/${key}`,
          resourceAccount: owner.account.accountId,
        },
        {
          identity,
          ...(policy
            ? { resource: { name: `the bucket policy of ${bucket}`, statements: policyStatements(policy) } }
            : {}),
        },
      );
      if (!decision.allowed) return denied(decision.reason);
      const bytes = objectBytes(owner, bucket, key);
      return bytes
        ? { ok: true, value: bytes }
        : { ok: false, reason: `NoSuchKey: s3://${bucket}/${key} does not exist` };
    },
    decrypt(ciphertext) {
      try {
        const { key, plaintext } = decrypt(ctx, ciphertext);
        const arn = String(key.model.arn);
        const decision = authorize(
          { caller, action: 'kms:Decrypt', resource: arn, resourceAccount: key.account.accountId },
          {
            identity,
            keyPolicyRequired: true,
            ...(key.model.policy
              ? { resource: { name: `the key policy of ${arn}`, statements: policyStatements(key.model.policy) } }
              : {}),
          },
        );
        return decision.allowed ? { ok: true, value: plaintext } : denied(decision.reason);
      } catch (error) {
        if (error instanceof KmsError) return { ok: false, reason: error.message };
        throw error;
      }
    },
  };
}
