import { Template } from 'aws-cdk-lib/assertions';
import { ClmClusterAccessStack } from '../../infra/stacks/clm-cluster-access-stack';
import type { ClmClusterAccessStackProps } from '../../infra/stacks/clm-cluster-access-stack';
import { actionsOf, logicalId, testApp } from './synth';
import type { PolicyStatementJson } from './synth';

const CLM_ACCOUNT = '123456789012';

function synth(props: Partial<ClmClusterAccessStackProps> = {}) {
  const stack = new ClmClusterAccessStack(testApp(), 'ClmClusterAccess', {
    clmAccountId: CLM_ACCOUNT,
    externalId: 'clm-ext-1',
    ...props,
  });
  return Template.fromStack(stack);
}

const roleOf = (template: Template, prefix: string) =>
  template.findResources('AWS::IAM::Role')[logicalId(template, 'AWS::IAM::Role', prefix)]!.Properties;
const inline = (role: any): PolicyStatementJson[] =>
  role.Policies.flatMap((p: any) => p.PolicyDocument.Statement as PolicyStatementJson[]);
const policyOf = (template: Template, prefix: string): PolicyStatementJson[] =>
  template.findResources('AWS::IAM::ManagedPolicy')[logicalId(template, 'AWS::IAM::ManagedPolicy', prefix)]!.Properties
    .PolicyDocument.Statement;
const text = (value: unknown) => JSON.stringify(value);

describe('ClmClusterAccess', () => {
  const template = synth({ organizationId: 'o-abcdefghij' });

  it('lets only the CLM account’s task roles assume the access role, with the ExternalId and the organisation', () => {
    const role = roleOf(template, 'AccessRole');
    expect(role.RoleName).toBe('cluster-lifecycle-manager');
    expect(role.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { AWS: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:iam::${CLM_ACCOUNT}:root`]] } },
        Condition: {
          StringEquals: { 'sts:ExternalId': 'clm-ext-1', 'aws:PrincipalOrgID': 'o-abcdefghij' },
          ArnLike: {
            'aws:PrincipalArn': [
              { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:iam::${CLM_ACCOUNT}:role/ClmWorkflow-*`]] },
            ],
          },
        },
      },
    ]);
    expect(role.ManagedPolicyArns).toBeUndefined();
  });

  it('writes stacks only with CLM’s names and only through the bounded service role', () => {
    const statements = inline(roleOf(template, 'AccessRole'));
    const stackRole = logicalId(template, 'AWS::IAM::Role', 'StackRole');
    const operations = statements.find((s) => actionsOf([s]).includes('cloudformation:CreateStack'))!;
    expect(actionsOf([operations]).sort()).toEqual([
      'cloudformation:ContinueUpdateRollback',
      'cloudformation:CreateStack',
      'cloudformation:DeleteStack',
      'cloudformation:UpdateStack',
    ]);
    expect(operations.Condition).toEqual({
      StringEquals: { 'cloudformation:RoleArn': { 'Fn::GetAtt': [stackRole, 'Arn'] } },
    });
    expect(text(operations.Resource)).toMatch(/stack\/kube-\*\/\*.*stack\/nodepool-\*\/\*/);
    const passRole = statements.find((s) => actionsOf([s]).includes('iam:PassRole'))!;
    expect(passRole.Resource).toEqual({ 'Fn::GetAtt': [stackRole, 'Arn'] });
    expect(actionsOf(statements).filter((a) => a.startsWith('iam:'))).toEqual(['iam:PassRole']);
  });

  it('rolls only node pools tagged as CLM’s, through Auto Scaling; EC2 writes only Karpenter instances’ termination and decommission’s deletes; no write on every resource', () => {
    const statements = inline(roleOf(template, 'AccessRole'));
    const asg = statements.find((s) => actionsOf([s]).includes('autoscaling:TerminateInstanceInAutoScalingGroup'))!;
    expect(asg.Condition).toEqual({ StringEquals: { 'autoscaling:ResourceTag/kubernetes.io/role/node-pool': 'true' } });
    expect(actionsOf(statements).filter((a) => a.startsWith('ec2:') && !a.startsWith('ec2:Describe'))).toEqual([
      // Karpenter pools: only instances that carry the karpenter.sh/nodepool tag (roll, removal, decommission)
      'ec2:TerminateInstances',
      'ec2:DeleteNetworkInterface',
      'ec2:DeleteSecurityGroup',
      'ec2:DeleteVolume',
    ]);
    for (const s of statements.filter((st) => st.Resource === '*'))
      // Describe calls, ValidateTemplate and the account's certificates (ListCertificates) are not resource-scoped.
      expect(
        actionsOf([s]).every((a) =>
          /^((ec2|autoscaling|cloudwatch|elasticloadbalancing|eks):Describe|cloudformation:ValidateTemplate$|acm:(ListCertificates|GetCertificate)$)/.test(
            a,
          ),
        ),
      ).toBe(true);
  });

  it('runs stacks with a role capped by its boundary, which forces the node-role boundary on every role they make', () => {
    const stackRole = roleOf(template, 'StackRole');
    expect(stackRole.RoleName).toBe('cluster-lifecycle-manager-stacks');
    expect(stackRole.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Principal: { Service: 'cloudformation.amazonaws.com' } }),
    ]);
    expect(stackRole.ManagedPolicyArns).toBeUndefined();
    const boundaryId = logicalId(template, 'AWS::IAM::ManagedPolicy', 'StackRoleStacksBoundary');
    expect(stackRole.PermissionsBoundary).toEqual({ Ref: boundaryId });
    expect(actionsOf(inline(stackRole))).not.toContain('iam:*');

    const boundary = policyOf(template, 'StackRoleStacksBoundary');
    const denies = boundary.filter((s) => s.Effect === 'Deny');
    const nodeBoundaryArn = {
      'Fn::Join': ['', expect.arrayContaining([':policy/cluster-lifecycle-manager-node-role-boundary'])],
    };
    expect(denies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: expect.arrayContaining(['iam:CreateRole', 'iam:AttachRolePolicy', 'iam:PutRolePolicy']),
          Condition: { StringNotEquals: { 'iam:PermissionsBoundary': nodeBoundaryArn } },
        }),
        expect.objectContaining({ Action: 'iam:DeleteRolePermissionsBoundary' }),
        expect.objectContaining({ Action: 'iam:*' }),
      ]),
    );
    const protectedResources = text(denies.find((s) => s.Action === 'iam:*')!.Resource);
    for (const name of [
      ':role/cluster-lifecycle-manager-stacks',
      ':role/cluster-lifecycle-manager"',
      ':policy/cluster-lifecycle-manager-node-role-boundary',
      ':policy/cluster-lifecycle-manager-stacks-boundary',
    ])
      expect(protectedResources).toContain(name);
  });

  it('lets template roles, profiles and policies only have the cluster stacks’ names, and services only from a list', () => {
    const template2 = synth({ stackNamePatterns: ['k8s-*'] });
    const allows = inline(roleOf(template2, 'StackRole'));
    const iam = allows.find((s) => actionsOf([s]).includes('iam:CreateRole'))!;
    for (const kind of ['role', 'instance-profile', 'policy']) expect(text(iam.Resource)).toContain(`:${kind}/k8s-*"`);
    expect(text(iam.Resource)).not.toMatch(/role\/\*"/);
    // no service's every action: the role's actions are listed (stack-role-permissions.test.ts checks them)
    expect(actionsOf(allows).filter((a) => a.endsWith(':*'))).toEqual([]);
    // its boundary caps it by service: the template services, IAM as the role has it, never Organizations
    const boundaryAllows = policyOf(template2, 'StackRoleStacksBoundary').filter((st) => st.Effect === 'Allow');
    const services = actionsOf(boundaryAllows).filter((a) => a.endsWith(':*'));
    expect(services).not.toContain('iam:*');
    expect(services).not.toContain('organizations:*');
    expect(services).toEqual(expect.arrayContaining(['ec2:*', 'autoscaling:*', 'elasticloadbalancing:*']));
  });

  it('caps every role a template makes at the node-role boundary: no IAM, no Organizations', () => {
    const node = policyOf(template, 'StackRoleNodeRoleBoundary');
    expect(actionsOf(node).filter((a) => /^(iam|organizations|account):/.test(a))).toEqual([]);
    expect(node.every((s) => s.Effect === 'Allow')).toBe(true);
  });

  it('fails on a bad account id or ExternalId', () => {
    expect(() => synth({ clmAccountId: '12' })).toThrow('clmAccountId must be a 12-digit AWS account id');
    expect(() => synth({ externalId: 'x' })).toThrow('externalId must be 2-1224 characters');
  });
});
