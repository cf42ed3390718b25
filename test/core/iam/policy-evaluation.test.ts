import { authorize, type AccessPolicies, type AccessRequest } from '../../../lambdas/core/iam/policy-evaluation';
import { policyStatements } from '../../../lambdas/core/iam/policy-document';

const ROLE = 'arn:aws:iam::123456789012:role/kube-1-worker';
const OBJECT = 'arn:aws:s3:::cluster-lifecycle-manager-123456789012-eu-central-1/kube-1/worker/abc.userdata';
const KEY = 'arn:aws:kms:eu-central-1:123456789012:key/1111';
const caller = { arn: ROLE, account: '123456789012' };
const get: AccessRequest = { caller, action: 's3:GetObject', resource: OBJECT, resourceAccount: '123456789012' };
const decrypt: AccessRequest = { caller, action: 'kms:Decrypt', resource: KEY, resourceAccount: '123456789012' };

const policy = (name: string, ...Statement: object[]) => ({ name, statements: policyStatements({ Statement }) });
const allowGet = (Resource: string | string[]) =>
  policy('inline policy files', { Effect: 'Allow', Action: 's3:GetObject', Resource });

describe('authorize (IAM evaluation for a node bootstrap)', () => {
  it('allows an identity policy grant in the same account, with globs on actions (any case) and resources', () => {
    expect(authorize(get, { identity: [allowGet(OBJECT)] })).toEqual({ allowed: true });
    expect(
      authorize(get, { identity: [allowGet('arn:aws:s3:::cluster-lifecycle-manager-*/kube-1/worker/*')] }),
    ).toEqual({
      allowed: true,
    });
    expect(authorize(get, { identity: [policy('p', { Effect: 'Allow', Action: 'S3:Get*', Resource: '*' })] })).toEqual({
      allowed: true,
    });
    expect(
      authorize(get, { identity: [allowGet('arn:aws:s3:::cluster-lifecycle-manager-*/kube-1/master/*')] }),
    ).toEqual({
      allowed: false,
      reason: `s3:GetObject on ${OBJECT}: no policy of ${ROLE} allows it (inline policy files)`,
    });
  });

  it('lets an explicit Deny win over any Allow, naming the policy and statement', () => {
    const deny = policy('bucket', { Sid: 'NoNodes', Effect: 'Deny', Principal: '*', Action: 's3:*', Resource: '*' });
    expect(authorize(get, { identity: [allowGet(OBJECT)], resource: deny })).toEqual({
      allowed: false,
      reason: `s3:GetObject on ${OBJECT} is explicitly denied by bucket (statement NoNodes)`,
      explicit: true,
    });
  });

  it('needs identity and resource policy across accounts, either within one', () => {
    const bucketGrant = policy('the bucket policy', {
      Effect: 'Allow',
      Principal: { AWS: 'arn:aws:iam::123456789012:root' },
      Action: 's3:GetObject',
      Resource: `${OBJECT}`,
    });
    const foreign = { ...get, resourceAccount: '999999999999' };
    expect(authorize(foreign, { identity: [allowGet(OBJECT)] })).toMatchObject({ allowed: false });
    expect(authorize(foreign, { identity: [allowGet(OBJECT)], resource: bucketGrant })).toEqual({ allowed: true });
    expect(authorize(foreign, { identity: [], resource: bucketGrant })).toMatchObject({ allowed: false });
    // same account: a bucket policy naming the role itself suffices
    const direct = policy('the bucket policy', {
      Effect: 'Allow',
      Principal: { AWS: ROLE },
      Action: 's3:GetObject',
      Resource: OBJECT,
    });
    expect(authorize(get, { identity: [], resource: direct })).toEqual({ allowed: true });
  });

  it('reaches a KMS key only through its key policy: a direct grant, or the account delegating to IAM', () => {
    const identity = [policy('p', { Effect: 'Allow', Action: 'kms:Decrypt', Resource: KEY })];
    const keyPolicy = (Principal: object): AccessPolicies['resource'] =>
      policy('the key policy', { Effect: 'Allow', Principal, Action: 'kms:*', Resource: '*' });
    const required = { keyPolicyRequired: true };
    expect(authorize(decrypt, { identity: [], resource: keyPolicy({ AWS: ROLE }), ...required })).toEqual({
      allowed: true,
    });
    expect(
      authorize(decrypt, { identity, resource: keyPolicy({ AWS: 'arn:aws:iam::123456789012:root' }), ...required }),
    ).toEqual({ allowed: true });
    expect(
      authorize(decrypt, { identity: [], resource: keyPolicy({ AWS: '123456789012' }), ...required }),
    ).toMatchObject({ allowed: false, reason: expect.stringContaining('delegates to IAM') });
    expect(
      authorize(decrypt, { identity, resource: keyPolicy({ AWS: 'arn:aws:iam::1:role/x' }), ...required }),
    ).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('grants neither'),
    });
    expect(authorize(decrypt, { identity, ...required })).toMatchObject({ allowed: false });
  });

  it('evaluates conditions on the principal (kubernetes-on-aws etcd key: ArnLike aws:PrincipalArn)', () => {
    const keyPolicy = policy('the key policy', {
      Effect: 'Allow',
      Principal: { AWS: 'arn:aws:iam::123456789012:root' },
      Action: 'kms:Decrypt',
      Resource: '*',
      Condition: { ArnLike: { 'aws:PrincipalArn': 'arn:aws:iam::123456789012:role/etcd-cluster-etcd-EtcdRole-*' } },
    });
    const identity = [policy('p', { Effect: 'Allow', Action: 'kms:Decrypt', Resource: '*' })];
    const etcd = {
      ...decrypt,
      caller: { ...caller, arn: 'arn:aws:iam::123456789012:role/etcd-cluster-etcd-EtcdRole-x-eu-central-1' },
    };
    expect(authorize(etcd, { identity, resource: keyPolicy, keyPolicyRequired: true })).toEqual({ allowed: true });
    expect(authorize(decrypt, { identity, resource: keyPolicy, keyPolicyRequired: true })).toMatchObject({
      allowed: false,
    });
  });

  it('never lets an operator it does not model open access, and always lets it deny', () => {
    const condition = { IpAddress: { 'aws:SourceIp': '10.0.0.0/8' } };
    const allow = policy('p', { Effect: 'Allow', Action: 's3:GetObject', Resource: '*', Condition: condition });
    const deny = policy('d', { Effect: 'Deny', Action: 's3:GetObject', Resource: '*', Condition: condition });
    expect(authorize(get, { identity: [allow] })).toMatchObject({ allowed: false });
    expect(authorize(get, { identity: [allowGet(OBJECT), deny] })).toMatchObject({ allowed: false });
  });

  it('needs the permissions boundary to allow too, and lets a Deny in it win', () => {
    const boundary = policy('the boundary', { Effect: 'Allow', Action: 's3:*', Resource: 'arn:aws:s3:::other/*' });
    expect(authorize(get, { identity: [allowGet(OBJECT)], boundary })).toEqual({
      allowed: false,
      reason: `s3:GetObject on ${OBJECT}: the permissions boundary the boundary does not allow it`,
    });
    const wide = policy('the boundary', { Effect: 'Allow', Action: '*', Resource: '*' });
    expect(authorize(get, { identity: [allowGet(OBJECT)], boundary: wide })).toEqual({ allowed: true });
    const denying = policy(
      'the boundary',
      { Effect: 'Allow', Action: '*', Resource: '*' },
      {
        Effect: 'Deny',
        Action: 's3:GetObject',
        Resource: '*',
      },
    );
    expect(authorize(get, { identity: [allowGet(OBJECT)], boundary: denying })).toMatchObject({
      allowed: false,
      explicit: true,
    });
  });

  it('holds a negated operator when its key is absent, so such a Deny applies as in AWS', () => {
    const deny = policy('d', {
      Effect: 'Deny',
      Action: 's3:GetObject',
      Resource: '*',
      Condition: { StringNotEquals: { 'aws:ResourceTag/owner': 'clm' } },
    });
    expect(authorize(get, { identity: [allowGet(OBJECT), deny] })).toMatchObject({ allowed: false, explicit: true });
    const tagged = { ...get, context: { 'aws:ResourceTag/owner': 'clm' } };
    expect(authorize(tagged, { identity: [allowGet(OBJECT), deny] })).toEqual({ allowed: true });
  });

  it('evaluates ForAllValues and ForAnyValue over multi-valued keys', () => {
    const onlyOwner = policy('p', {
      Effect: 'Allow',
      Action: 's3:GetObject',
      Resource: '*',
      Condition: { 'ForAllValues:StringEquals': { 'aws:TagKeys': ['owner', 'team'] } },
    });
    const tags = (...keys: string[]) => ({ ...get, context: { 'aws:TagKeys': keys } });
    expect(authorize(tags('owner'), { identity: [onlyOwner] })).toEqual({ allowed: true });
    expect(authorize(tags(), { identity: [onlyOwner] })).toEqual({ allowed: true });
    expect(authorize(tags('owner', 'cost'), { identity: [onlyOwner] })).toMatchObject({ allowed: false });
    const anyTeam = policy('p', {
      Effect: 'Allow',
      Action: 's3:GetObject',
      Resource: '*',
      Condition: { 'ForAnyValue:StringLike': { 'aws:TagKeys': 'team*' } },
    });
    expect(authorize(tags('owner', 'team-a'), { identity: [anyTeam] })).toEqual({ allowed: true });
    expect(authorize(tags(), { identity: [anyTeam] })).toMatchObject({ allowed: false });
  });
});
