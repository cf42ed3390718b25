import { isRecord } from '../../core/config/plain-data';
import type { SimContext } from '../sim-context';
import type { AccountState, ResourceRecord } from '../world-state';
import type { Props, Provisioned } from './cfn-resource-scope';

/**
 * The parts of IAM, KMS and S3 a node's bootstrap depends on, as the stacks made them: roles with their inline and
 * attached policies, instance profiles, managed and inline policy resources attached to roles, KMS keys with their key
 * policies and aliases, buckets and bucket policies. Each such resource keeps a `model` (its evaluated properties
 * that matter) on its stack record; lookups search the stacks of the world. IAM is global to an account (every
 * region's stacks are searched), KMS keys belong to their region, bucket names are global.
 */

type Model = Record<string, unknown>;
const strings = (value: unknown): string[] =>
  value === undefined || value === null ? [] : (Array.isArray(value) ? value : [value]).map(String);

/** The model kept for a resource type the access checks read; undefined for the others. */
export function accessModel(type: string, props: Props, provisioned: Provisioned): Model | undefined {
  const { physicalId, attributes } = provisioned;
  switch (type) {
    case 'AWS::IAM::Role':
      return {
        name: physicalId,
        arn: attributes.Arn,
        policies: (Array.isArray(props.Policies) ? props.Policies : [])
          .filter(isRecord)
          .map((p) => ({ name: String(p.PolicyName ?? ''), document: p.PolicyDocument })),
        managedPolicyArns: strings(props.ManagedPolicyArns),
      };
    case 'AWS::IAM::InstanceProfile':
      return { name: physicalId, arn: attributes.Arn, roles: strings(props.Roles) };
    case 'AWS::IAM::Policy':
      return {
        name: String(props.PolicyName ?? physicalId),
        document: props.PolicyDocument,
        roles: strings(props.Roles),
      };
    case 'AWS::IAM::ManagedPolicy':
      return { arn: physicalId, document: props.PolicyDocument, roles: strings(props.Roles) };
    case 'AWS::KMS::Key':
      return { keyId: physicalId, arn: attributes.Arn, policy: props.KeyPolicy, enabled: props.Enabled !== false };
    case 'AWS::KMS::Alias':
      return { alias: String(props.AliasName ?? physicalId), target: String(props.TargetKeyId ?? '') };
    case 'AWS::S3::Bucket':
      return { name: physicalId };
    case 'AWS::S3::BucketPolicy':
      return { bucket: String(props.Bucket ?? ''), policy: props.PolicyDocument };
    default:
      return undefined;
  }
}

export interface Located {
  readonly account: AccountState;
  readonly record: ResourceRecord;
  readonly model: Model;
}

/** Every modelled resource of `type` in the accounts `where` selects, in a stable order. */
export function modelled(ctx: SimContext, type: string, where: (account: AccountState) => boolean): Located[] {
  const found: Located[] = [];
  for (const key of Object.keys(ctx.state.accounts).sort()) {
    const account = ctx.state.accounts[key]!;
    if (!where(account)) continue;
    for (const name of Object.keys(account.stacks).sort()) {
      const stack = account.stacks[name]!;
      if (stack.status.startsWith('DELETE_COMPLETE')) continue;
      for (const record of Object.values(stack.resources))
        if (record.type === type && record.model) found.push({ account, record, model: record.model });
    }
  }
  return found;
}

const inAccount = (accountId: string) => (account: AccountState) => account.accountId === accountId;

/** An instance profile by name or ARN, in the account (IAM is global: every region's stacks). */
export function findInstanceProfile(ctx: SimContext, accountId: string, nameOrArn: string): Located | undefined {
  return modelled(ctx, 'AWS::IAM::InstanceProfile', inAccount(accountId)).find(
    (p) => p.model.name === nameOrArn || p.model.arn === nameOrArn,
  );
}

/** A role by name or ARN, in the account. */
export function findRole(ctx: SimContext, accountId: string, nameOrArn: string): Located | undefined {
  return modelled(ctx, 'AWS::IAM::Role', inAccount(accountId)).find(
    (r) => r.model.name === nameOrArn || r.model.arn === nameOrArn,
  );
}

/** A role's identity policies: inline, attached managed (of the account's stacks) and policy resources naming it. */
export function identityPolicies(
  ctx: SimContext,
  accountId: string,
  role: Model,
): { name: string; document: unknown }[] {
  const roleName = String(role.name);
  const inline = (role.policies as { name: string; document: unknown }[]).map((p) => ({
    name: `inline policy ${p.name} of role ${roleName}`,
    document: p.document,
  }));
  const attached = strings(role.managedPolicyArns);
  const managed = modelled(ctx, 'AWS::IAM::ManagedPolicy', inAccount(accountId))
    .filter((p) => attached.includes(String(p.model.arn)) || strings(p.model.roles).includes(roleName))
    .map((p) => ({ name: `managed policy ${String(p.model.arn)}`, document: p.model.document }));
  const policies = modelled(ctx, 'AWS::IAM::Policy', inAccount(accountId))
    .filter((p) => strings(p.model.roles).includes(roleName))
    .map((p) => ({ name: `policy ${String(p.model.name)}`, document: p.model.document }));
  return [...inline, ...managed, ...policies];
}

/** A KMS key by id, ARN, alias name or alias ARN, in the account and region. */
export function findKey(ctx: SimContext, account: AccountState, keyId: string): Located | undefined {
  const here = (a: AccountState) => a.key === account.key;
  const keys = modelled(ctx, 'AWS::KMS::Key', here);
  const byId = (id: string) => keys.find((k) => k.model.keyId === id || k.model.arn === id);
  const aliasName = keyId.replace(/^arn:[^:]+:kms:[^:]+:\d{12}:/, '');
  if (!aliasName.startsWith('alias/')) return byId(keyId);
  const alias = modelled(ctx, 'AWS::KMS::Alias', here).find((a) => a.model.alias === aliasName);
  return alias ? byId(String(alias.model.target)) : undefined;
}

/** A key by its ARN, wherever it is (a ciphertext names its key's ARN). */
export function findKeyByArn(ctx: SimContext, arn: string): Located | undefined {
  return modelled(ctx, 'AWS::KMS::Key', () => true).find((k) => k.model.arn === arn);
}

/** The policy of a bucket a stack made, when a stack of its account gives it one. */
export function bucketPolicy(ctx: SimContext, accountId: string, bucket: string): unknown {
  return modelled(ctx, 'AWS::S3::BucketPolicy', inAccount(accountId)).find((p) => p.model.bucket === bucket)?.model
    .policy;
}

/** A bucket a stack made (AWS::S3::Bucket), wherever it is: bucket names are global. */
export function findStackBucket(ctx: SimContext, name: string): Located | undefined {
  return modelled(ctx, 'AWS::S3::Bucket', () => true).find((b) => b.model.name === name);
}
