// ClusterCloudAccess (infra/constructs/cloud-access.ts) in the workflow stack: same-account mode through a
// CloudFormation service role, cross-account mode through one assumed role.
import { Match } from 'aws-cdk-lib/assertions';
import { CONFIGURED, TASK_NAMES, actionsOf, grantsOf, logicalId, roleActions, statementsOf, synthClm } from './synth';

describe('ClusterCloudAccess', () => {
  const { workflowTemplate: template } = synthClm(CONFIGURED);

  it('same-account mode: deploys through a CloudFormation service role, scoped by ARN pattern', () => {
    const stackRole = logicalId(template, 'AWS::IAM::Role', 'ClusterAccessStackRole');
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [Match.objectLike({ Principal: { Service: 'cloudformation.amazonaws.com' } })],
      },
      ManagedPolicyArns: [
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/PowerUserAccess']] },
      ],
    });
    const deploy = statementsOf(template, logicalId(template, 'AWS::IAM::Role', 'DeployStacksRole'));
    expect(deploy).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: 'iam:PassRole',
          Resource: { 'Fn::GetAtt': [stackRole, 'Arn'] },
          Condition: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
        }),
        expect.objectContaining({
          Action: expect.arrayContaining([
            'cloudformation:CreateStack',
            'cloudformation:UpdateStack',
            'cloudformation:DeleteStack',
          ]),
          Resource: expect.arrayContaining([{ 'Fn::Join': ['', expect.arrayContaining([':stack/*'])] }]),
        }),
      ]),
    );
    expect(actionsOf(deploy).filter((a) => a.startsWith('autoscaling:') || a.startsWith('ec2:'))).toEqual([]);
    const roll = roleActions(template, 'RollNodePool');
    expect(roll).toEqual(
      expect.arrayContaining([
        'autoscaling:SetDesiredCapacity',
        'autoscaling:TerminateInstanceInAutoScalingGroup',
        'ec2:TerminateInstances',
        'ec2:DescribeInstances',
      ]),
    );
    expect(roll.filter((a) => a.startsWith('cloudformation:Create') || a === 'iam:PassRole')).toEqual([]);
    for (const task of ['Prepare', 'WaitForApiServer', 'ScaleDownControllers', 'Finalize', 'RecordProblem'] as const) {
      expect({
        task,
        cloud: roleActions(template, task).filter((a) => /^(cloudformation|autoscaling|ec2|kms|sts|iam):/.test(a)),
      }).toEqual({ task, cloud: [] });
    }
    // ApplyManifests deletes the cf-manifest stacks deletions.yaml names: stacks only, never nodes.
    const apply = roleActions(template, 'ApplyManifests');
    expect(apply).toEqual(expect.arrayContaining(['cloudformation:DeleteStack', 'iam:PassRole']));
    expect(apply.filter((a) => /^(autoscaling|ec2|kms):/.test(a))).toEqual([]);
    // Every task that writes stacks passes the service role (CLM_STACK_ROLE_ARN); the others do not get it.
    const functions = template.findResources('AWS::Lambda::Function');
    for (const task of TASK_NAMES) {
      const fn = functions[logicalId(template, 'AWS::Lambda::Function', task)];
      expect({ task, stackRole: fn.Properties.Environment.Variables.CLM_STACK_ROLE_ARN }).toEqual({
        task,
        stackRole: grantsOf(task).cloud.includes('stacks-write') ? { 'Fn::GetAtt': [stackRole, 'Arn'] } : undefined,
      });
    }
  });

  it('cross-account mode: tasks may only assume the named role, and no service role exists', () => {
    const { workflowTemplate: cross } = synthClm({ assumedRoleName: 'cluster-lifecycle-manager' });
    expect(
      Object.keys(cross.findResources('AWS::IAM::Role')).filter((id) => id.startsWith('ClusterAccessStackRole')),
    ).toEqual([]);
    for (const task of TASK_NAMES) {
      const statements = statementsOf(cross, logicalId(cross, 'AWS::IAM::Role', `${task}Role`));
      const cloud = actionsOf(statements).filter((a) => /^(cloudformation|autoscaling|ec2|kms|sts|iam):/.test(a));
      expect({ task, cloud }).toEqual({ task, cloud: grantsOf(task).cloud.length > 0 ? ['sts:AssumeRole'] : [] });
      if (cloud.length > 0) {
        expect(statements.find((s) => s.Action === 'sts:AssumeRole')!.Resource).toEqual({
          'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::*:role/cluster-lifecycle-manager']],
        });
      }
      const fn = cross.findResources('AWS::Lambda::Function')[logicalId(cross, 'AWS::Lambda::Function', task)];
      expect(fn.Properties.Environment.Variables).toEqual(
        expect.objectContaining({ CLM_ASSUMED_ROLE: 'cluster-lifecycle-manager' }),
      );
      expect(fn.Properties.Environment.Variables.CLM_STACK_ROLE_ARN).toBeUndefined();
    }
  });
});
