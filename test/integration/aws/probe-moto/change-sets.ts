/**
 * CloudFormation change sets: describe, no side effects, no changes, execute, delete, and CREATE change sets.
 */
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  ExecuteChangeSetCommand,
} from '@aws-sdk/client-cloudformation';
import { DescribeLaunchTemplateVersionsCommand } from '@aws-sdk/client-ec2';
import type { Probe } from './probe';
import { record, step, expectError } from './report';
import { nodePoolTemplate, params, outputs, userData2 } from './templates';

/** Change sets on a node-pool stack of their own (probe-cs). */
export async function probeChangeSets(probe: Probe): Promise<void> {
  const { cfn, ec2 } = probe;
  await step('cfn', 'CreateChangeSet / DescribeChangeSet', async () => {
    await cfn.send(
      new CreateStackCommand({
        StackName: 'probe-cs',
        TemplateBody: nodePoolTemplate(),
        Parameters: params(probe.baseParams()),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    await probe.waitStack('probe-cs');
    const ltBefore = outputs(await probe.describeStack('probe-cs')).LatestVersion;
    const cs = await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'probe-cs',
        ChangeSetName: 'plan1',
        ChangeSetType: 'UPDATE',
        TemplateBody: nodePoolTemplate(),
        Parameters: params({ ...probe.baseParams(), UserData: userData2 }),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const d = await cfn.send(new DescribeChangeSetCommand({ StackName: 'probe-cs', ChangeSetName: 'plan1' }));
    record(
      'cfn',
      'DescribeChangeSet (UserData parameter changed)',
      'info',
      `Id ${cs.Id}; Status ${d.Status}; ExecutionStatus ${d.ExecutionStatus}; StatusReason ${d.StatusReason ?? '-'}; Changes ${JSON.stringify(d.Changes?.map((c) => ({ action: c.ResourceChange?.Action, id: c.ResourceChange?.LogicalResourceId, type: c.ResourceChange?.ResourceType, replacement: c.ResourceChange?.Replacement, scope: c.ResourceChange?.Scope, details: c.ResourceChange?.Details?.length })))}`,
    );
    const ltAfterCs = outputs(await probe.describeStack('probe-cs')).LatestVersion;
    record(
      'cfn',
      'CreateChangeSet has no side effects',
      ltAfterCs === ltBefore ? 'same' : 'differs',
      `LatestVersion output ${ltBefore} -> ${ltAfterCs}; stack status ${(await probe.describeStack('probe-cs')).StackStatus}`,
    );
    const cs2 = await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'probe-cs',
        ChangeSetName: 'plan2',
        ChangeSetType: 'UPDATE',
        TemplateBody: nodePoolTemplate('m5.xlarge'),
        Parameters: params(probe.baseParams()),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const d2 = await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: cs2.Id! }));
    record(
      'cfn',
      'DescribeChangeSet (literal InstanceType changed), by ARN',
      'info',
      `Status ${d2.Status}; Changes ${JSON.stringify(d2.Changes?.map((c) => `${c.ResourceChange?.Action}:${c.ResourceChange?.LogicalResourceId}:${c.ResourceChange?.Replacement ?? '-'}`))}`,
    );
    const { ConfigVersion: _cv, ...noDefaulted } = probe.baseParams();
    for (const [label, p] of [
      ['all parameters passed', probe.baseParams()],
      ['defaulted parameter omitted', noDefaulted],
    ] as const) {
      const csName = label.startsWith('all') ? 'plan3' : 'plan4';
      const e3 = await expectError(async () => {
        await cfn.send(
          new CreateChangeSetCommand({
            StackName: 'probe-cs',
            ChangeSetName: csName,
            ChangeSetType: 'UPDATE',
            TemplateBody: nodePoolTemplate(),
            Parameters: params(p),
            Capabilities: ['CAPABILITY_NAMED_IAM'],
          }),
        );
      });
      const d3 = e3
        ? undefined
        : await cfn.send(new DescribeChangeSetCommand({ StackName: 'probe-cs', ChangeSetName: csName }));
      record(
        'cfn',
        `CreateChangeSet with no changes (${label})`,
        d3?.Status === 'FAILED' ? 'same' : 'differs',
        `${e3 ?? `Status ${d3?.Status}; StatusReason ${d3?.StatusReason ?? '-'}; Changes ${d3?.Changes?.length}`} (AWS: change set created, Status FAILED, StatusReason "The submitted information didn't contain changes. Submit different information to create a change set.")`,
      );
    }
    await cfn.send(new ExecuteChangeSetCommand({ StackName: 'probe-cs', ChangeSetName: 'plan1' }));
    const after = await probe.waitStack('probe-cs');
    const csLt = outputs(after.stack).LaunchTemplateId;
    const csVersions = (
      await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: csLt }))
    ).LaunchTemplateVersions?.map(
      (v) =>
        `v${v.VersionNumber}:${Buffer.from(v.LaunchTemplateData?.UserData ?? '', 'base64')
          .toString()
          .trim()
          .split('\n')
          .pop()}`,
    );
    const csParam = after.stack.Parameters?.find((x) => x.ParameterKey === 'UserData')
      ?.ParameterValue?.trim()
      .split('\n')
      .pop();
    record(
      'cfn',
      'ExecuteChangeSet plan1 (UserData parameter change)',
      outputs(after.stack).LatestVersion === '2' ? 'same' : 'differs',
      `status ${after.stack.StackStatus}; LT versions ${JSON.stringify(csVersions)}; Outputs.LatestVersion ${outputs(after.stack).LatestVersion}; DescribeStacks UserData parameter now ${JSON.stringify(csParam)}`,
    );
    const del = await expectError(() =>
      cfn.send(new DeleteChangeSetCommand({ StackName: 'probe-cs', ChangeSetName: 'plan2' })),
    );
    record('cfn', 'DeleteChangeSet', del ? 'differs' : 'same', del ?? 'ok');
    const cr = await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'probe-cs-new',
        ChangeSetName: 'create1',
        ChangeSetType: 'CREATE',
        TemplateBody: nodePoolTemplate(),
        Parameters: params(probe.baseParams()),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const crs = await probe.describeStack('probe-cs-new');
    const crd = await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: cr.Id! }));
    record(
      'cfn',
      'CreateChangeSet ChangeSetType=CREATE',
      crs.StackStatus === 'REVIEW_IN_PROGRESS' ? 'same' : 'differs',
      `stack ${crs.StackStatus}; change set ${crd.Status}; Changes ${JSON.stringify(crd.Changes?.map((c) => `${c.ResourceChange?.Action}:${c.ResourceChange?.LogicalResourceId}`))}`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-cs-new' })).catch(() => undefined);
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-cs' }));
  });
}
