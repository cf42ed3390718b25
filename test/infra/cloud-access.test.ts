// ClusterCloudAccess (infra/constructs/cloud-access.ts) in the workflow stack: same-account mode through a
// CloudFormation service role, cross-account mode through the role of the cluster accounts (ClmClusterAccess).
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import { CONFIGURED, TASK_NAMES, actionsOf, grantsOf, logicalId, roleActions, statementsOf, synthClm } from './synth';

describe('ClusterCloudAccess', () => {
  const { workflowTemplate: template } = synthClm(CONFIGURED);

  it('same-account mode: deploys through a bounded CloudFormation service role, scoped by names and tags', () => {
    const stackRole = logicalId(template, 'AWS::IAM::Role', 'ClusterAccessStackRole');
    const role = template.findResources('AWS::IAM::Role')[stackRole];
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Principal: { Service: 'cloudformation.amazonaws.com' } }),
    ]);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined(); // no PowerUserAccess any more
    expect(role.Properties.PermissionsBoundary).toEqual({
      Ref: logicalId(template, 'AWS::IAM::ManagedPolicy', 'ClusterAccessStackRoleStacksBoundary'),
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
          Action: [
            'cloudformation:ContinueUpdateRollback',
            'cloudformation:CreateStack',
            'cloudformation:DeleteStack',
            'cloudformation:UpdateStack',
          ],
          Resource: [
            { 'Fn::Join': ['', expect.arrayContaining([':stack/kube-*/*'])] },
            { 'Fn::Join': ['', expect.arrayContaining([':stack/nodepool-*/*'])] },
          ],
          Condition: { StringEquals: { 'cloudformation:RoleArn': { 'Fn::GetAtt': [stackRole, 'Arn'] } } },
        }),
      ]),
    );
    // It reads the Auto Scaling groups (which pools have something to roll) but changes nothing there itself.
    expect(actionsOf(deploy).filter((a) => /^(autoscaling|ec2):(?!Describe)/.test(a))).toEqual([]);
    expect(actionsOf(deploy)).toContain('autoscaling:DescribeAutoScalingGroups');
    // Only decommission's cleanup deletes what a cluster left outside its stacks, in this account and region.
    const cleanup = statementsOf(template, logicalId(template, 'AWS::IAM::Role', 'CleanUpLeftoversRole'));
    expect(cleanup).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: ['ec2:DeleteNetworkInterface', 'ec2:DeleteSecurityGroup', 'ec2:DeleteVolume'],
          Resource: [
            { 'Fn::Join': ['', expect.arrayContaining([':network-interface/*'])] },
            { 'Fn::Join': ['', expect.arrayContaining([':security-group/*'])] },
            { 'Fn::Join': ['', expect.arrayContaining([':volume/*'])] },
          ],
        }),
        expect.objectContaining({
          Action: ['elasticloadbalancing:DeleteLoadBalancer', 'elasticloadbalancing:DeleteTargetGroup'],
          Resource: [
            { 'Fn::Join': ['', expect.arrayContaining([':loadbalancer/*'])] },
            { 'Fn::Join': ['', expect.arrayContaining([':targetgroup/*'])] },
          ],
        }),
      ]),
    );
    for (const other of ['DeployStacksRole', 'RollNodePoolRole', 'DeleteStacksRole', 'ApplyManifestsRole'])
      expect(
        actionsOf(statementsOf(template, logicalId(template, 'AWS::IAM::Role', other))).filter((a) =>
          /^(ec2|elasticloadbalancing):Delete/.test(a),
        ),
      ).toEqual([]);
    const roll = statementsOf(template, logicalId(template, 'AWS::IAM::Role', 'RollNodePoolRole'));
    expect(roll).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: expect.arrayContaining(['autoscaling:TerminateInstanceInAutoScalingGroup']),
          Condition: { StringEquals: { 'autoscaling:ResourceTag/kubernetes.io/role/node-pool': 'true' } },
        }),
      ]),
    );
    // ASG instances are terminated through their group; the one EC2 write is TerminateInstances on Karpenter's
    // instances (tag key karpenter.sh/nodepool present), and no Auto Scaling write without the tag.
    expect(actionsOf(roll).filter((a) => a.startsWith('ec2:') && !a.startsWith('ec2:Describe'))).toEqual([
      'ec2:TerminateInstances',
    ]);
    expect(roll.find((s) => actionsOf([s]).includes('ec2:TerminateInstances'))!.Condition).toEqual({
      Null: { 'aws:ResourceTag/karpenter.sh/nodepool': 'false' },
    });
    for (const s of roll.filter((st) => actionsOf([st]).some((a) => /^autoscaling:(?!Describe)/.test(a))))
      expect(s.Condition).toBeDefined();
    expect(actionsOf(roll).filter((a) => a.startsWith('cloudformation:Create') || a === 'iam:PassRole')).toEqual([]);
    for (const task of ['Prepare', 'WaitForApiServer', 'ScaleDownControllers', 'Finalize', 'RecordProblem'] as const) {
      expect({
        task,
        cloud: roleActions(template, task).filter((a) => /^(cloudformation|autoscaling|ec2|kms|sts|iam):/.test(a)),
      }).toEqual({ task, cloud: [] });
    }
    // servicequotas:GetServiceQuota, on the On-Demand vCPU quotas by code, only for the tasks that rehearse.
    for (const task of TASK_NAMES)
      expect({ task, quotas: roleActions(template, task).includes('servicequotas:GetServiceQuota') }).toEqual({
        task,
        quotas: ['PlanUpdate', 'ReviewUpdate'].includes(task),
      });
    const quotaRead = statementsOf(template, logicalId(template, 'AWS::IAM::Role', 'PlanUpdateRole')).find((st) =>
      actionsOf([st]).includes('servicequotas:GetServiceQuota'),
    )!;
    expect(quotaRead.Resource).toHaveLength(6);
    expect(quotaRead.Resource).toContainEqual({ 'Fn::Join': ['', expect.arrayContaining([':ec2/L-1216C47A'])] });
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

  it('cross-account mode: tasks may assume the named role only in the registry accounts, never iam::*', () => {
    const accounts = ['210987654321', '123456789012'];
    const { workflowTemplate: cross } = synthClm({
      assumedRoleName: 'cluster-lifecycle-manager',
      clusterAccountIds: accounts,
      externalId: 'clm-ext-1',
    });
    expect(
      Object.keys(cross.findResources('AWS::IAM::Role')).filter((id) => id.startsWith('ClusterAccessStackRole')),
    ).toEqual([]);
    for (const task of TASK_NAMES) {
      const statements = statementsOf(cross, logicalId(cross, 'AWS::IAM::Role', `${task}Role`));
      const cloud = actionsOf(statements).filter((a) => /^(cloudformation|autoscaling|ec2|sts|iam):/.test(a));
      expect({ task, cloud }).toEqual({
        task,
        cloud: grantsOf(task).cloud.some((c) => c !== 'decrypt') ? ['sts:AssumeRole'] : [],
      });
      if (cloud.length > 0) {
        expect(statements.find((s) => s.Action === 'sts:AssumeRole')!.Resource).toEqual(
          [...accounts].sort().map((account) => ({
            'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:iam::${account}:role/cluster-lifecycle-manager`]],
          })),
        );
      }
      // aws:kms: items are decrypted with CLM's own identity in both modes.
      expect({ task, kms: actionsOf(statements).includes('kms:Decrypt') }).toEqual({
        task,
        kms: grantsOf(task).cloud.includes('decrypt'),
      });
      const fn = cross.findResources('AWS::Lambda::Function')[logicalId(cross, 'AWS::Lambda::Function', task)];
      expect(fn.Properties.Environment.Variables).toEqual(
        expect.objectContaining({
          CLM_ASSUMED_ROLE: 'cluster-lifecycle-manager',
          CLM_STACK_ROLE_NAME: 'cluster-lifecycle-manager-stacks',
          CLM_EXTERNAL_ID: 'clm-ext-1',
        }),
      );
      expect(fn.Properties.Environment.Variables.CLM_STACK_ROLE_ARN).toBeUndefined();
    }
  });

  it('lets the tasks that talk to API servers read the per-cluster token secrets under the prefix, and only those', () => {
    const { workflowTemplate: withPrefix } = synthClm({ clusterTokenSecretPrefix: 'clm/clusters/' });
    for (const task of TASK_NAMES) {
      const reads = statementsOf(withPrefix, logicalId(withPrefix, 'AWS::IAM::Role', `${task}Role`)).filter((s) =>
        actionsOf([s]).includes('secretsmanager:GetSecretValue'),
      );
      const clusterTokenReads = reads
        .map((s) => JSON.stringify(s.Resource))
        .filter((r) => !r.includes('WebhookSecret'));
      expect({ task, reads: clusterTokenReads }).toEqual({
        task,
        reads: TASK_CATALOGUE.find((t) => t.name === task)!.ports.kube
          ? [expect.stringContaining(':secret:clm/clusters/*')]
          : [],
      });
    }
  });

  it('cross-account mode in an organisation: any account, but only with aws:ResourceOrgID', () => {
    const { workflowTemplate: org } = synthClm({ assumedRoleName: 'clm', organizationId: 'o-abcdefghij' });
    const statement = statementsOf(org, logicalId(org, 'AWS::IAM::Role', 'DeployStacksRole')).find(
      (s) => s.Action === 'sts:AssumeRole',
    )!;
    expect(statement.Condition).toEqual({ StringEquals: { 'aws:ResourceOrgID': 'o-abcdefghij' } });
  });

  it('fails cross-account mode without the cluster accounts or an organisation, and on a bad account id', () => {
    expect(() => synthClm({ assumedRoleName: 'clm' })).toThrow('set clusterAccountIds');
    expect(() => synthClm({ assumedRoleName: 'clm', clusterAccountIds: ['12345'] })).toThrow(
      'clusterAccountIds: "12345" is not a 12-digit AWS account id',
    );
  });
});
