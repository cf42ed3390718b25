// The access role's deletes of what a cluster left outside its stacks (decommission), as synthesized: only resources
// no CloudFormation stack made (CloudFormation's aws:cloudformation:stack-id tag), evaluated with support/iam-policy.ts.
import { Template } from 'aws-cdk-lib/assertions';
import { ClmClusterAccessStack } from '../../infra/stacks/clm-cluster-access-stack';
import { testApp } from './synth';
import { decide, resolveIntrinsics, type PolicyStatement } from './support/iam-policy';
import { ACCOUNT } from './support/template-calls';

describe('the access role’s leftover deletes (decommission)', () => {
  it('delete only volumes, interfaces, security groups and load balancers that no CloudFormation stack made', () => {
    const stack = new ClmClusterAccessStack(testApp(), 'ClmClusterAccess', {
      clmAccountId: '210987654321',
      externalId: 'clm-ext-1',
    });
    const template = Template.fromStack(stack).toJSON() as Record<string, any>;
    const [, role] = Object.entries(template.Resources as Record<string, any>).find(
      ([id, r]) => r.Type === 'AWS::IAM::Role' && id.startsWith('AccessRole'),
    )!;
    const statements = (role.Properties.Policies as any[]).flatMap(
      (p) => resolveIntrinsics(p.PolicyDocument.Statement, template, ACCOUNT) as PolicyStatement[],
    );
    const ofStack = {
      'aws:ResourceTag/aws:cloudformation:stack-id': 'arn:aws:cloudformation:eu-central-1:1:stack/db/1',
    };
    const owned = { 'aws:ResourceTag/kubernetes.io/cluster/kube-test': 'owned' };
    const deletes: [string, string][] = [
      ['ec2:DeleteVolume', `arn:aws:ec2:eu-central-1:${ACCOUNT}:volume/vol-0123`],
      ['ec2:DeleteNetworkInterface', `arn:aws:ec2:eu-central-1:${ACCOUNT}:network-interface/eni-0123`],
      ['ec2:DeleteSecurityGroup', `arn:aws:ec2:eu-central-1:${ACCOUNT}:security-group/sg-0123`],
      [
        'elasticloadbalancing:DeleteLoadBalancer',
        `arn:aws:elasticloadbalancing:eu-central-1:${ACCOUNT}:loadbalancer/app/k8s-web/0123`,
      ],
      [
        'elasticloadbalancing:DeleteTargetGroup',
        `arn:aws:elasticloadbalancing:eu-central-1:${ACCOUNT}:targetgroup/k8s-web/0123`,
      ],
    ];
    for (const [action, resource] of deletes) {
      expect([action, decide(statements, undefined, { action, resource, context: owned })]).toEqual([
        action,
        'allowed',
      ]);
      expect([action, decide(statements, undefined, { action, resource, context: { ...owned, ...ofStack } })]).toEqual([
        action,
        'not allowed',
      ]);
    }
  });
});
